import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from './support/app.js';
import {
  ACCEPTED,
  type Expected as Answer,
  type AuthRow,
  authMatrix,
  buildCallers,
  type Caller,
  type Callers,
  CREATED,
  cookieIgnored,
  ENV_NOT_FOUND,
  FORBIDDEN,
  INVALID_CREDENTIALS,
  isOwnerSession,
  type ListedCaller,
  managedLikeItsForm,
  NO_CONTENT,
  NOT_FOUND,
  NOT_OWNER,
  OK,
  sessionOnly,
  UNAUTHORIZED,
  userOf,
  workspaceOf,
} from './support/auth-matrix.js';
import { createEnvironment, createForm, createKey } from './support/factories.js';

/**
 * Who may call what: every forms, keys, environments, webhooks and analytics endpoint against every
 * kind of caller, as one table (API.md §1, §3-§5, §7, §8 and the decisions in the project notes).
 *
 * The callers are test/support/auth-matrix.ts's: an owner with a `staging` environment, keys of
 * both kinds, another user with a secret key of their own `development`, a deleted key, unknown
 * credentials, and the owner's browser session (the cookie, with its CSRF token or without). This
 * file adds a live and a draft form in the owner's `development`. Each row then sends one request
 * and checks the status and `body.code`; rows that change things get fresh resources, so they stay
 * independent.
 *
 * Rows do not spell the cookie callers out: they answer as the owner's session does, except that
 * without the token every POST, PUT, PATCH and DELETE is 403 `forbidden` and changes nothing; a
 * row whose route never reads the cookie says so itself (`cookieIgnored`).
 */

interface World extends Callers {
  liveForm: { id: string };
  draftForm: { id: string };
}

/** The expected answer of one row. `view` checks a 200 form; `list` checks a 200 list. */
interface Expected extends Answer {
  view?: 'full' | 'public';
  list?: { view: 'full' | 'public'; includes: Array<'live' | 'draft'>; excludes: Array<'live' | 'draft'> };
}

type Endpoint<R = undefined> = AuthRow<World, R, Expected>;

// --- expected answers ---------------------------------------------------------------

const FULL: Expected = { status: 200, view: 'full' };
const PUBLIC: Expected = { status: 200, view: 'public' };

const listOf = (view: 'full' | 'public', includes: Array<'live' | 'draft'>): Expected => ({
  status: 200,
  list: { view, includes, excludes: (['live', 'draft'] as const).filter((s) => !includes.includes(s)) },
});

/** GET /forms?environment=development and its deprecated twin answer the same. */
const LIST_DEVELOPMENT: Record<ListedCaller, Expected> = {
  anonymous: listOf('public', ['live']),
  'other user session': listOf('full', []),
  'publishable key (same env)': listOf('public', ['live', 'draft']),
  'secret key (same env)': listOf('full', ['live', 'draft']),
  'secret key (other env)': FORBIDDEN,
  // its own environment is called development too: it lists its own forms, never the owner's
  "other user's secret key": listOf('full', []),
  ...INVALID_CREDENTIALS,
  'owner session': listOf('full', ['live', 'draft']),
};

// --- helpers ------------------------------------------------------------------------

let t: TestApp;

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
const ok = (status: number) => status >= 200 && status < 300;

async function ownerRead(w: World, url: string): Promise<Response> {
  return t.request({ method: 'GET', url, auth: w.owner.token });
}

function expectFullForm(form: any) {
  expect(form).toHaveProperty('userId');
  expect(form).toHaveProperty('storage');
  expect(form).toHaveProperty('webhooks');
}

function expectPublicForm(form: any) {
  expect(form).not.toHaveProperty('userId');
  expect(form).not.toHaveProperty('storage');
  expect(form).not.toHaveProperty('notifications');
  expect(form).not.toHaveProperty('webhooks');
  expect(form).not.toHaveProperty('retention');
  for (const field of form.fields) {
    expect(field).not.toHaveProperty('pii');
    expect(field).not.toHaveProperty('piiMode');
  }
}

/** Beyond status and code (the runner checks those): the view of a form, or of a list of forms. */
function expectView(w: World, response: Response, expected: Expected) {
  if (expected.view === 'full') expectFullForm(response.body);
  if (expected.view === 'public') expectPublicForm(response.body);
  if (expected.list) {
    const { data } = response.body;
    expect(Array.isArray(data)).toBe(true);
    for (const form of data) {
      if (expected.list.view === 'full') expectFullForm(form);
      else expectPublicForm(form);
    }
    const ids = data.map((form: { id: string }) => form.id);
    const idOf = { live: w.liveForm.id, draft: w.draftForm.id };
    for (const status of expected.list.includes) expect(ids).toContain(idOf[status]);
    for (const status of expected.list.excludes) expect(ids).not.toContain(idOf[status]);
  }
}

// --- the endpoints ------------------------------------------------------------------

const endpoints: Endpoint<any>[] = [
  {
    name: 'GET /environments',
    request: () => ({ method: 'GET', url: '/environments' }),
    expected: sessionOnly(OK, OK),
    verify: async (_w, _r, response, caller) => {
      if (!ok(response.status)) return;
      const names = response.body.data.map((e: { name: string }) => e.name);
      // each user sees only their own environments: staging is the owner's alone
      expect(names).toEqual(expect.arrayContaining(['development', 'production']));
      expect(names.includes('staging')).toBe(isOwnerSession(caller));
    },
  } satisfies Endpoint,
  {
    name: 'POST /environments',
    prepare: async () => unique('env'),
    request: (_w, name: string) => ({ method: 'POST', url: '/environments', body: { name } }),
    expected: sessionOnly(CREATED, CREATED),
    verify: async (w, name: string, response, caller) => {
      const owners = await t.app.intake.database.db
        .selectFrom('environments')
        .select('workspace_id')
        .where('name', '=', name)
        .execute();
      // created in the caller's own workspace, or not at all
      const expected = ok(response.status) ? [{ workspace_id: workspaceOf(w, caller) }] : [];
      expect(owners).toEqual(expected);
    },
  } satisfies Endpoint<string>,
  {
    name: 'DELETE /environments/{name}',
    prepare: async (w) => {
      const name = unique('doomed');
      await createEnvironment(t, w.owner, name);
      return name;
    },
    request: (_w, name: string) => ({ method: 'DELETE', url: `/environments/${name}` }),
    // another user has no environment of that name: theirs to look up, and it is not there
    expected: sessionOnly(NO_CONTENT, ENV_NOT_FOUND),
    verify: async (w, name: string, response) => {
      const list = await ownerRead(w, '/environments');
      const names = list.body.data.map((e: { name: string }) => e.name);
      expect(names.includes(name)).toBe(!ok(response.status));
    },
  } satisfies Endpoint<string>,
  {
    name: 'POST /keys/secrets',
    request: () => ({ method: 'POST', url: '/keys/secrets?environment=development' }),
    expected: sessionOnly(CREATED, CREATED),
    verify: async (_w, _r, response) => {
      if (!ok(response.status)) return;
      expect(response.body.kind).toBe('secret');
      expect(response.body.key).toMatch(/^sk_live_/);
    },
  } satisfies Endpoint,
  {
    name: 'POST /keys/publishable',
    request: () => ({ method: 'POST', url: '/keys/publishable?environment=development' }),
    expected: sessionOnly(CREATED, CREATED),
    verify: async (_w, _r, response) => {
      if (!ok(response.status)) return;
      expect(response.body.kind).toBe('publishable');
      expect(response.body.key).toMatch(/^pk_live_/);
    },
  } satisfies Endpoint,
  ...(['secret', 'publishable'] as const).map(
    (kind) =>
      ({
        name: `DELETE /keys/${kind === 'secret' ? 'secrets' : 'publishable'}/{id}`,
        prepare: (w) => createKey(t, w.owner, kind),
        request: (_w, key) => ({
          method: 'DELETE',
          url: `/keys/${kind === 'secret' ? 'secrets' : 'publishable'}/${key.id}`,
        }),
        // another user's key id is 404, as if it did not exist
        expected: sessionOnly(NO_CONTENT, NOT_FOUND),
        verify: async (_w, key, response) => {
          // a deleted key is refused at once; a kept one still works
          const use = await t.request({
            method: 'GET',
            url: '/forms?environment=development',
            auth: key.key,
          });
          expect(use.status).toBe(ok(response.status) ? 401 : 200);
        },
      }) satisfies Endpoint<{ id: string; key: string }>,
  ),
  {
    name: 'GET /keys',
    request: () => ({ method: 'GET', url: '/keys?environment=development' }),
    expected: sessionOnly(OK, OK),
    verify: async (w, _r, response, caller) => {
      if (!ok(response.status)) return;
      for (const key of response.body.data) expect(key).not.toHaveProperty('key');
      const ids = response.body.data.map((k: { id: string }) => k.id);
      // the owner's development keys include the publishable one; the other user's do not
      expect(ids.includes(w.keys.publishable.id)).toBe(isOwnerSession(caller));
    },
  } satisfies Endpoint,
  {
    name: 'POST /forms',
    request: () => ({
      method: 'POST',
      url: '/forms',
      body: {
        title: 'Matrix form',
        environment: 'development',
        fields: [{ id: 'name', type: 'text', label: 'Name' }],
      },
    }),
    expected: {
      anonymous: UNAUTHORIZED,
      'other user session': CREATED,
      'publishable key (same env)': FORBIDDEN,
      'secret key (same env)': CREATED,
      'secret key (other env)': FORBIDDEN,
      // its own development environment: the form is the other user's
      "other user's secret key": CREATED,
      ...INVALID_CREDENTIALS,
      'owner session': CREATED,
    },
    verify: async (w, _r, response, caller) => {
      if (!ok(response.status)) return;
      expectFullForm(response.body);
      expect(response.body.environment).toBe('development');
      expect(response.body.userId).toBe(userOf(w, caller));
    },
  } satisfies Endpoint,
  {
    name: 'GET /forms?environment=development',
    request: () => ({ method: 'GET', url: '/forms?environment=development&limit=100' }),
    expected: LIST_DEVELOPMENT,
  } satisfies Endpoint,
  {
    name: 'GET /environments/development/forms (deprecated)',
    request: () => ({ method: 'GET', url: '/environments/development/forms?limit=100' }),
    expected: LIST_DEVELOPMENT,
  } satisfies Endpoint,
  {
    name: 'GET /forms/{id} (live)',
    request: (w) => ({ method: 'GET', url: `/forms/${w.liveForm.id}` }),
    expected: {
      anonymous: PUBLIC,
      'other user session': PUBLIC,
      'publishable key (same env)': PUBLIC,
      'secret key (same env)': FULL,
      // a key outside the form's environment or account is refused even for a live form
      'secret key (other env)': FORBIDDEN,
      "other user's secret key": FORBIDDEN,
      ...INVALID_CREDENTIALS,
      'owner session': FULL,
    },
  } satisfies Endpoint,
  {
    name: 'GET /forms/{id} (draft)',
    request: (w) => ({ method: 'GET', url: `/forms/${w.draftForm.id}` }),
    expected: {
      anonymous: NOT_FOUND,
      'other user session': NOT_OWNER,
      'publishable key (same env)': PUBLIC,
      'secret key (same env)': FULL,
      'secret key (other env)': FORBIDDEN,
      "other user's secret key": FORBIDDEN,
      ...INVALID_CREDENTIALS,
      'owner session': FULL,
    },
  } satisfies Endpoint,
  // the QR code of the form's link: read like the form itself (an owner's draft, anyone's live form)
  {
    name: 'GET /forms/{id}/qr.svg (live)',
    request: (w) => ({ method: 'GET', url: `/forms/${w.liveForm.id}/qr.svg` }),
    expected: {
      anonymous: OK,
      'other user session': OK,
      'publishable key (same env)': OK,
      'secret key (same env)': OK,
      'secret key (other env)': FORBIDDEN,
      "other user's secret key": FORBIDDEN,
      ...INVALID_CREDENTIALS,
      'owner session': OK,
    },
  } satisfies Endpoint,
  {
    name: 'GET /forms/{id}/qr.svg (draft)',
    request: (w) => ({ method: 'GET', url: `/forms/${w.draftForm.id}/qr.svg` }),
    expected: {
      anonymous: NOT_FOUND,
      'other user session': NOT_OWNER,
      'publishable key (same env)': OK,
      'secret key (same env)': OK,
      'secret key (other env)': FORBIDDEN,
      "other user's secret key": FORBIDDEN,
      ...INVALID_CREDENTIALS,
      'owner session': OK,
    },
  } satisfies Endpoint,
  {
    name: 'GET /v1/forms/{id}/public (live)',
    request: (w) => ({ method: 'GET', url: `/v1/forms/${w.liveForm.id}/public` }),
    // a public endpoint: every valid caller gets the public view (only a bad credential is refused)
    expected: {
      anonymous: PUBLIC,
      'other user session': PUBLIC,
      'publishable key (same env)': PUBLIC,
      'secret key (same env)': PUBLIC,
      'secret key (other env)': PUBLIC,
      "other user's secret key": PUBLIC,
      ...INVALID_CREDENTIALS,
      'owner session': PUBLIC,
    },
    cookie: cookieIgnored(PUBLIC),
  } satisfies Endpoint,
  {
    name: 'GET /v1/forms/{id}/public (draft)',
    request: (w) => ({ method: 'GET', url: `/v1/forms/${w.draftForm.id}/public` }),
    // not live reads as absent, even for the owner
    expected: {
      anonymous: NOT_FOUND,
      'other user session': NOT_FOUND,
      'publishable key (same env)': NOT_FOUND,
      'secret key (same env)': NOT_FOUND,
      'secret key (other env)': NOT_FOUND,
      "other user's secret key": NOT_FOUND,
      ...INVALID_CREDENTIALS,
      'owner session': NOT_FOUND,
    },
    cookie: cookieIgnored(NOT_FOUND),
  } satisfies Endpoint,
  ...(['draft', 'live'] as const).flatMap((status) => [
    {
      name: `PUT /forms/{id} (${status})`,
      prepare: (w: World) => createForm(t, w.owner.token, { status }),
      request: (_w: World, form: { id: string }) => ({
        method: 'PUT' as const,
        url: `/forms/${form.id}`,
        body: { title: 'Renamed' },
      }),
      expected: managedLikeItsForm(FULL),
      verify: async (w: World, form: { id: string }, response: Response) => {
        const stored = await ownerRead(w, `/forms/${form.id}`);
        expect(stored.body.title).toBe(ok(response.status) ? 'Renamed' : 'Contact us');
        expect(stored.body.version).toBe(ok(response.status) ? 2 : 1);
      },
    } satisfies Endpoint<{ id: string }>,
    {
      name: `DELETE /forms/{id} (${status})`,
      prepare: (w: World) => createForm(t, w.owner.token, { status }),
      request: (_w: World, form: { id: string }) => ({ method: 'DELETE' as const, url: `/forms/${form.id}` }),
      expected: managedLikeItsForm(NO_CONTENT),
      verify: async (w: World, form: { id: string }, response: Response) => {
        const stored = await ownerRead(w, `/forms/${form.id}`);
        expect(stored.status).toBe(ok(response.status) ? 404 : 200);
      },
    } satisfies Endpoint<{ id: string }>,
  ]),
  ...workingCopyEndpoints(),
  ...analyticsEndpoints(),
  ...webhookEndpoints(),
];

/** API.md §5.5: a live form's working copy is managed like its form; nobody else learns it exists. */
function workingCopyEndpoints(): Endpoint<any>[] {
  /** A live form with a working copy titled 'Working copy' (the owner's). */
  const liveWithCopy = async (w: World) => {
    const form = await createForm(t, w.owner.token, { status: 'live' });
    const saved = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}/draft`,
      auth: w.owner.token,
      body: { title: 'Working copy' },
    });
    if (saved.status !== 200) throw new Error(`working copy failed: ${saved.status} ${saved.text}`);
    return form as { id: string };
  };
  const copyOf = (w: World, form: { id: string }) => ownerRead(w, `/forms/${form.id}/draft`);
  return [
    {
      name: 'PUT /forms/{id}/draft (live)',
      prepare: (w: World) => createForm(t, w.owner.token, { status: 'live' }),
      request: (_w: World, form: { id: string }) => ({
        method: 'PUT' as const,
        url: `/forms/${form.id}/draft`,
        body: { title: 'Renamed aside' },
      }),
      expected: managedLikeItsForm(FULL),
      verify: async (w: World, form: { id: string }, response: Response) => {
        expect((await copyOf(w, form)).status).toBe(ok(response.status) ? 200 : 404);
        // respondents' form is untouched either way
        expect((await ownerRead(w, `/forms/${form.id}`)).body).toMatchObject({
          title: 'Contact us',
          version: 1,
        });
      },
    } satisfies Endpoint<{ id: string }>,
    {
      name: 'GET /forms/{id}/draft (live)',
      prepare: liveWithCopy,
      request: (_w: World, form: { id: string }) => ({
        method: 'GET' as const,
        url: `/forms/${form.id}/draft`,
      }),
      expected: managedLikeItsForm(FULL),
      verify: async (_w: World, _form: { id: string }, response: Response) => {
        if (ok(response.status)) expect(response.body.title).toBe('Working copy');
        else expect(response.text).not.toContain('Working copy');
      },
    } satisfies Endpoint<{ id: string }>,
    {
      name: 'POST /forms/{id}/draft/publish (live)',
      prepare: liveWithCopy,
      request: (_w: World, form: { id: string }) => ({
        method: 'POST' as const,
        url: `/forms/${form.id}/draft/publish`,
      }),
      expected: managedLikeItsForm(FULL),
      verify: async (w: World, form: { id: string }, response: Response) => {
        const stored = await ownerRead(w, `/forms/${form.id}`);
        expect(stored.body.title).toBe(ok(response.status) ? 'Working copy' : 'Contact us');
        expect((await copyOf(w, form)).status).toBe(ok(response.status) ? 404 : 200);
      },
    } satisfies Endpoint<{ id: string }>,
    {
      name: 'DELETE /forms/{id}/draft (live)',
      prepare: liveWithCopy,
      request: (_w: World, form: { id: string }) => ({
        method: 'DELETE' as const,
        url: `/forms/${form.id}/draft`,
      }),
      expected: managedLikeItsForm(NO_CONTENT),
      verify: async (w: World, form: { id: string }, response: Response) => {
        expect((await copyOf(w, form)).status).toBe(ok(response.status) ? 404 : 200);
      },
    } satisfies Endpoint<{ id: string }>,
  ];
}

/** API.md §8: analytics, form events, and the legacy responses path. */
function analyticsEndpoints(): Endpoint<any>[] {
  /** An environment's counts: a session or a secret key of it; anyone else's own environment is their own. */
  const ENVIRONMENT_COUNTS: Record<ListedCaller, Expected> = {
    anonymous: UNAUTHORIZED,
    'other user session': OK,
    'publishable key (same env)': FORBIDDEN,
    'secret key (same env)': OK,
    'secret key (other env)': FORBIDDEN,
    "other user's secret key": OK,
    ...INVALID_CREDENTIALS,
    'owner session': OK,
  };
  /** The owner's form, read with a session or a secret key of its environment. */
  const MANAGE_FORM: Record<ListedCaller, Expected> = managedLikeItsForm(OK);
  const verifyForms = async (w: World, _r: unknown, response: Response, caller: Caller) => {
    if (!ok(response.status)) return;
    const ids = response.body.forms.map((form: { formId: string }) => form.formId);
    const owners = isOwnerSession(caller) || caller === 'secret key (same env)';
    // another user's environment of the same name holds none of the owner's forms
    expect(ids.includes(w.liveForm.id)).toBe(owners);
    expect(ids.includes(w.draftForm.id)).toBe(owners);
  };
  const verifyEvent = async (sessionId: string, response: Response) => {
    const rows = await t.app.intake.database.db
      .selectFrom('form_events')
      .select('form_id')
      .where('session_id', '=', sessionId)
      .execute();
    expect(rows.length).toBe(ok(response.status) ? 1 : 0);
  };
  return [
    {
      name: 'GET /analytics?environment=development',
      request: () => ({ method: 'GET', url: '/analytics?environment=development' }),
      expected: ENVIRONMENT_COUNTS,
      verify: verifyForms,
    } satisfies Endpoint,
    {
      name: 'GET /environments/development/analytics (deprecated)',
      request: () => ({ method: 'GET', url: '/environments/development/analytics' }),
      expected: ENVIRONMENT_COUNTS,
      verify: verifyForms,
    } satisfies Endpoint,
    {
      name: 'GET /analytics?environment=development&form_id={live}',
      request: (w) => ({ method: 'GET', url: `/analytics?environment=development&form_id=${w.liveForm.id}` }),
      expected: MANAGE_FORM,
      verify: async (w, _r, response) => {
        if (ok(response.status))
          expect(response.body.forms.map((f: any) => f.formId)).toEqual([w.liveForm.id]);
      },
    } satisfies Endpoint,
    {
      name: 'GET /analytics/questions?environment=development&form_id={live}',
      request: (w) => ({
        method: 'GET',
        url: `/analytics/questions?environment=development&form_id=${w.liveForm.id}`,
      }),
      expected: MANAGE_FORM,
      verify: async (w, _r, response) => {
        if (ok(response.status)) expect(response.body.formId).toBe(w.liveForm.id);
        // a refusal tells nothing of the answers
        else expect(response.body).not.toHaveProperty('questions');
      },
    } satisfies Endpoint,
    {
      name: 'GET /analytics/drop-off?environment=development&form_id={live}',
      request: (w) => ({
        method: 'GET',
        url: `/analytics/drop-off?environment=development&form_id=${w.liveForm.id}`,
      }),
      expected: MANAGE_FORM,
      verify: async (w, _r, response) => {
        if (ok(response.status)) expect(response.body.formId).toBe(w.liveForm.id);
        // a refusal tells nothing of the steps
        else expect(response.body).not.toHaveProperty('questions');
      },
    } satisfies Endpoint,
    {
      name: 'GET /environments/development/responses?form_id={live} (deprecated)',
      request: (w) => ({
        method: 'GET',
        url: `/environments/development/responses?form_id=${w.liveForm.id}`,
      }),
      expected: MANAGE_FORM,
    } satisfies Endpoint,
    ...(['live', 'draft'] as const).map(
      (status) =>
        ({
          name: `POST /v1/forms/{id}/events (${status})`,
          prepare: async () => unique('session'),
          request: (w, sessionId) => ({
            method: 'POST',
            url: `/v1/forms/${status === 'live' ? w.liveForm.id : w.draftForm.id}/events`,
            body: { type: 'view', sessionId },
          }),
          // who may report = who may submit (API.md §6.1): sessions are not visitors
          expected: {
            anonymous: status === 'live' ? ACCEPTED : NOT_FOUND,
            'other user session': FORBIDDEN,
            'publishable key (same env)': status === 'live' ? ACCEPTED : FORBIDDEN,
            'secret key (same env)': ACCEPTED,
            'secret key (other env)': FORBIDDEN,
            "other user's secret key": FORBIDDEN,
            ...INVALID_CREDENTIALS,
            'owner session': FORBIDDEN,
          },
          // the form page reports without the dashboard's cookie, even in the owner's own browser
          cookie: cookieIgnored(status === 'live' ? ACCEPTED : NOT_FOUND),
          verify: (_w, sessionId, response) => verifyEvent(sessionId, response),
        }) satisfies Endpoint<string>,
    ),
  ];
}

/** API.md §7: the webhook resource. A webhook is managed like its form (managedLikeItsForm). */
function webhookEndpoints(): Endpoint<any>[] {
  type Made = { formId: string; webhookId: string };
  const make = async (w: World): Promise<Made> => {
    const form = await createForm(t, w.owner.token);
    const response = await t.request({
      method: 'POST',
      url: '/webhooks',
      auth: w.owner.token,
      body: { formId: form.id, event: 'response.created', url: 'https://hooks.example.com/matrix' },
    });
    if (response.status !== 201) throw new Error(`webhook failed: ${response.status} ${response.text}`);
    return { formId: form.id, webhookId: response.body.id };
  };
  const stored = (id: string) =>
    t.app.intake.database.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  /** Every webhook of an environment: anyone's own environment of that name is their own. */
  const ENVIRONMENT_LIST: Record<ListedCaller, Expected> = {
    anonymous: UNAUTHORIZED,
    'other user session': OK,
    'publishable key (same env)': FORBIDDEN,
    'secret key (same env)': OK,
    'secret key (other env)': FORBIDDEN,
    "other user's secret key": OK,
    ...INVALID_CREDENTIALS,
    'owner session': OK,
  };
  return [
    {
      name: 'POST /webhooks',
      prepare: (w) => createForm(t, w.owner.token),
      request: (_w, form: { id: string }) => ({
        method: 'POST',
        url: '/webhooks',
        body: { formId: form.id, event: 'form.updated', url: 'https://hooks.example.com/matrix' },
      }),
      expected: managedLikeItsForm(CREATED),
      verify: async (w, form: { id: string }, response) => {
        const rows = await t.app.intake.database.db
          .selectFrom('webhooks')
          .select('workspace_id')
          .where('form_id', '=', form.id)
          .execute();
        // created on the owner's form, in the owner's workspace, or not at all
        expect(rows).toEqual(ok(response.status) ? [{ workspace_id: w.owner.workspaceId }] : []);
      },
    } satisfies Endpoint<{ id: string }>,
    {
      name: 'GET /webhooks?form_id=',
      prepare: make,
      request: (_w, made: Made) => ({ method: 'GET', url: `/webhooks?form_id=${made.formId}` }),
      expected: managedLikeItsForm(OK),
      verify: async (_w, made: Made, response) => {
        if (ok(response.status)) expect(response.body.data.map((h: any) => h.id)).toEqual([made.webhookId]);
      },
    } satisfies Endpoint<Made>,
    {
      name: 'GET /webhooks?environment=development',
      prepare: make,
      request: () => ({ method: 'GET', url: '/webhooks?environment=development&limit=100' }),
      expected: ENVIRONMENT_LIST,
      verify: async (_w, made: Made, response, caller) => {
        if (!ok(response.status)) return;
        const ids = response.body.data.map((h: any) => h.id);
        // another user's development holds none of the owner's webhooks
        expect(ids.includes(made.webhookId)).toBe(
          isOwnerSession(caller) || caller === 'secret key (same env)',
        );
      },
    } satisfies Endpoint<Made>,
    {
      name: 'GET /webhooks/{id}',
      prepare: make,
      request: (_w, made: Made) => ({ method: 'GET', url: `/webhooks/${made.webhookId}` }),
      expected: managedLikeItsForm(OK),
    } satisfies Endpoint<Made>,
    {
      name: 'PATCH /webhooks/{id}',
      prepare: make,
      request: (_w, made: Made) => ({
        method: 'PATCH',
        url: `/webhooks/${made.webhookId}`,
        body: { enabled: false },
      }),
      expected: managedLikeItsForm(OK),
      verify: async (_w, made: Made, response) => {
        expect((await stored(made.webhookId))?.enabled).toBe(ok(response.status) ? 0 : 1);
      },
    } satisfies Endpoint<Made>,
    {
      name: 'DELETE /webhooks/{id}',
      prepare: make,
      request: (_w, made: Made) => ({ method: 'DELETE', url: `/webhooks/${made.webhookId}` }),
      expected: managedLikeItsForm(NO_CONTENT),
      verify: async (_w, made: Made, response) => {
        expect(await stored(made.webhookId)).toEqual(ok(response.status) ? undefined : expect.anything());
      },
    } satisfies Endpoint<Made>,
    {
      name: 'GET /webhooks/{id}/deliveries',
      prepare: make,
      request: (_w, made: Made) => ({ method: 'GET', url: `/webhooks/${made.webhookId}/deliveries` }),
      expected: managedLikeItsForm(OK),
    } satisfies Endpoint<Made>,
    {
      name: 'POST /webhooks/{id}/test',
      prepare: make,
      request: (_w, made: Made) => ({ method: 'POST', url: `/webhooks/${made.webhookId}/test` }),
      expected: managedLikeItsForm(ACCEPTED),
      verify: async (_w, made: Made, response) => {
        const deliveries = await t.app.intake.database.db
          .selectFrom('webhook_deliveries')
          .select('event')
          .where('webhook_id', '=', made.webhookId)
          .execute();
        // a test event queued exactly when the answer says so
        expect(deliveries).toEqual(ok(response.status) ? [{ event: 'webhook.test' }] : []);
      },
    } satisfies Endpoint<Made>,
    {
      name: 'POST /webhooks/{id}/deliveries/{deliveryId}/redeliver',
      prepare: async (w) => {
        const made = await make(w);
        const sent = await t.request({
          method: 'POST',
          url: `/webhooks/${made.webhookId}/test`,
          auth: w.owner.token,
        });
        if (sent.status !== 202) throw new Error(`test event failed: ${sent.status} ${sent.text}`);
        return { ...made, deliveryId: sent.body.id as string };
      },
      request: (_w, made: Made & { deliveryId: string }) => ({
        method: 'POST',
        url: `/webhooks/${made.webhookId}/deliveries/${made.deliveryId}/redeliver`,
      }),
      expected: managedLikeItsForm(ACCEPTED),
      verify: async (_w, made: Made & { deliveryId: string }, response) => {
        const deliveries = await t.app.intake.database.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('webhook_id', '=', made.webhookId)
          .execute();
        expect(deliveries).toHaveLength(ok(response.status) ? 2 : 1);
      },
    } satisfies Endpoint<Made & { deliveryId: string }>,
  ];
}

// --- the table ----------------------------------------------------------------------

let world: World;

beforeAll(async () => {
  t = await createTestApp();
  const callers = await buildCallers(t);
  const liveForm = await createForm(t, callers.owner.token, { title: 'Live form', status: 'live' });
  const draftForm = await createForm(t, callers.owner.token, { title: 'Draft form' });
  world = { ...callers, liveForm, draftForm };
});

afterAll(() => t.close());

describe('authorization matrix', () => {
  authMatrix({ app: () => t, world: () => world, rows: endpoints, check: expectView });
});

describe('GET /forms/{id}?environment= (checked after access)', () => {
  it.each([
    { form: 'draft', caller: 'anonymous', status: 404, code: 'not_found' },
    { form: 'draft', caller: 'other user session', status: 403, code: 'not_owner' },
    { form: 'draft', caller: 'owner session', status: 403, code: 'form_not_in_environment' },
    { form: 'live', caller: 'anonymous', status: 403, code: 'form_not_in_environment' },
    { form: 'live', caller: 'secret key (same env)', status: 403, code: 'form_not_in_environment' },
    { form: 'live', caller: 'secret key (other env)', status: 403, code: 'forbidden' },
  ] as const)(
    '$form form as $caller with ?environment=production -> $status $code',
    async ({ form, caller, status, code }) => {
      const id = form === 'live' ? world.liveForm.id : world.draftForm.id;
      const response = await t.request({
        method: 'GET',
        url: `/forms/${id}?environment=production`,
        auth: world.credentials[caller].auth,
      });
      expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
    },
  );
});

describe('the same answers whichever way a key travels', () => {
  const dash = (key: string) => key.replace(/^(sk|pk)_live_/, '$1-live-');
  it.each([
    { via: 'X-Publishable-Key', caller: 'publishable key (same env)', view: 'public', status: 200 },
    { via: 'X-API-Key', caller: 'publishable key (same env)', view: 'public', status: 200 },
    { via: 'X-API-Key', caller: 'secret key (same env)', view: 'full', status: 200 },
    { via: 'Bearer, dashed spelling', caller: 'secret key (same env)', view: 'full', status: 200 },
    { via: 'X-API-Key', caller: 'secret key (other env)', view: undefined, status: 403 },
    { via: 'X-API-Key', caller: 'deleted key', view: undefined, status: 401 },
    { via: 'Bearer, dashed spelling', caller: 'deleted key', view: undefined, status: 401 },
    { via: 'X-Publishable-Key', caller: 'unknown token', view: undefined, status: 401 },
  ] as const)('draft form read with $caller via $via -> $status', async ({ via, caller, view, status }) => {
    const key = world.credentials[caller].auth as string;
    const headers: Record<string, string> =
      via === 'Bearer, dashed spelling'
        ? { authorization: `Bearer ${dash(key)}` }
        : { [via.toLowerCase()]: key };
    const response = await t.request({ method: 'GET', url: `/forms/${world.draftForm.id}`, headers });
    expect(response.status).toBe(status);
    if (view === 'full') expectFullForm(response.body);
    if (view === 'public') expectPublicForm(response.body);
    if (status === 401) expect(response.body.code).toBe('unauthorized');
    if (status === 403) expect(response.body.code).toBe('forbidden');
  });
});
