import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestOptions, Response, TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { createForm, signup } from '../../../test/support/factories.js';
import { PDF, uploadFile } from '../../../test/support/multipart.js';
import { type SharedWorkspace, startSharedWorkspace } from '../../../test/support/shared-workspace.js';
import { ROLES, type Role } from '../../platform/roles.js';

/**
 * API.md §14's role table, cell by cell: every route that acts in a workspace, asked by a
 * member of each role, by a secret key of the workspace's environment (which works like an
 * editor there and never manages access or the workspace), and by a stranger naming the
 * workspace. The last test holds the table to the API: a route that acts in a workspace and has
 * no cell here fails it, so a new route cannot skip its row.
 */

/**
 * Who asks: a member of each role; the editor again through the dashboard's cookie (with its
 * CSRF token); a secret and a publishable key of the shared `development`; a stranger.
 */
const CALLERS = [...ROLES, 'editor cookie', 'secret key', 'publishable key', 'stranger'] as const;
type Caller = (typeof CALLERS)[number];

/** A caller's name as it may stand in an e-mail address. */
const slug = (who: Caller) => who.replace(/ /g, '-');

/** Sends one request as the caller under test, in the shared workspace (or `workspace`). */
type As = (options: Omit<RequestOptions, 'auth'>, workspace?: string) => Promise<Response>;

/** One action of §14's table: the route it is, how to set it up and ask for it, and the least role that may. */
interface Cell {
  name: string;
  /** `METHOD /path` as the OpenAPI document writes it. */
  route: string;
  least: Role;
  /** Sessions only (keys never manage keys, environments, members or workspaces). */
  sessionOnly?: true;
  /** The request as the caller; it may set up what it needs first. `who` names the caller in what it writes. */
  run(as: As, who: Caller): Promise<Response>;
  /** The status a permitted request answers. */
  ok: number;
  /** What a publishable key gets: 403 unless told (it reads live forms' public views, nothing else here). */
  publishable?: number;
}

let world: SharedWorkspace;
let t: TestApp;
let shared: string;
let secretKey: string;
let publishableKey: string;
/** The editor signed in as the dashboard is: the session cookie and its CSRF token. */
let editorCookie: Record<string, string>;

beforeAll(async () => {
  // every cell submits as the same client: no rate limit in the way
  world = await startSharedWorkspace({ rateLimitPublic: 1_000_000 });
  ({ t, shared } = world);
  const made = await world.sharedAs('owner', {
    method: 'POST',
    url: '/keys/secrets?environment=development',
  });
  expect(made.status, made.text).toBe(201);
  secretKey = made.body.key;
  const publishable = await world.sharedAs('owner', {
    method: 'POST',
    url: '/keys/publishable?environment=development',
  });
  publishableKey = publishable.body.key;
  const login = await t.request({
    method: 'POST',
    url: '/auth/login',
    body: { email: world.members.editor.email, password: world.members.editor.password, cookie: true },
  });
  const session = /^intake_session=([^;]+)/.exec(String(login.headers['set-cookie']))?.[1];
  expect(login.status, login.text).toBe(200);
  editorCookie = { cookie: `intake_session=${session}`, 'x-csrf-token': login.body.csrfToken };
});
afterAll(() => world?.close());

const sharedAs: SharedWorkspace['sharedAs'] = (...args) => world.sharedAs(...args);
const sharedForm: SharedWorkspace['sharedForm'] = (...args) => world.sharedForm(...args);
const submission: SharedWorkspace['submission'] = (...args) => world.submission(...args);
const addMember: SharedWorkspace['addMember'] = (...args) => world.addMember(...args);
const newWorkspace: SharedWorkspace['newWorkspace'] = (...args) => world.newWorkspace(...args);

/** A live form of the shared workspace with unpublished changes (a working copy). */
async function formWithWorkingCopy(): Promise<{ id: string }> {
  const form = await sharedForm();
  const saved = await sharedAs('owner', {
    method: 'PUT',
    url: `/forms/${form.id}/draft`,
    body: { title: 'Next' },
  });
  expect(saved.status, saved.text).toBe(200);
  return form;
}

async function sharedWebhook(): Promise<string> {
  const made = await sharedAs('owner', {
    method: 'POST',
    url: '/webhooks',
    body: { formId: (await sharedForm()).id, event: 'form.updated', url: 'https://hooks.example.com/roles' },
  });
  expect(made.status, made.text).toBe(201);
  return made.body.id;
}

async function sharedKey(kind: 'secrets' | 'publishable'): Promise<string> {
  const made = await sharedAs('owner', { method: 'POST', url: `/keys/${kind}?environment=development` });
  expect(made.status, made.text).toBe(201);
  return made.body.id;
}

/** A response of the shared workspace with a PDF attached. */
async function responseWithFile(): Promise<{ responseId: string; fileId: string }> {
  const form = await sharedForm({
    fields: [{ id: 'doc', type: 'file', label: 'Document', accept: ['.pdf'] }],
  });
  const upload = await uploadFile(t, form.id, 'doc', 'brief.pdf', PDF, 'application/pdf');
  expect(upload.status, upload.text).toBe(201);
  const sent = await t.request({
    method: 'POST',
    url: `/forms/${form.id}/submit`,
    body: { answers: { doc: [upload.body.uploadId] } },
  });
  expect(sent.status, sent.text).toBe(201);
  const read = await sharedAs('owner', {
    method: 'GET',
    url: `/responses/${sent.body.id}?form_id=${form.id}&environment=development`,
  });
  return { responseId: sent.body.id, fileId: read.body.answers.doc[0].id };
}

const CELLS: Cell[] = [
  {
    name: 'list forms',
    route: 'GET /forms',
    least: 'viewer',
    ok: 200,
    publishable: 200,
    run: (as, _who) => as({ method: 'GET', url: '/forms?environment=development' }),
  },
  {
    name: 'read a form (full view)',
    route: 'GET /forms/{id}',
    least: 'viewer',
    ok: 200,
    publishable: 200,
    run: async (as, _who) =>
      as({ method: 'GET', url: `/forms/${(await sharedForm({ status: 'draft' })).id}` }),
  },
  {
    name: 'read responses',
    route: 'GET /responses',
    least: 'viewer',
    ok: 200,
    run: async (as, _who) => {
      const form = await sharedForm();
      await submission(form.id);
      return as({ method: 'GET', url: `/responses?form_id=${form.id}&environment=development` });
    },
  },
  {
    name: 'read one response',
    route: 'GET /responses/{id}',
    least: 'viewer',
    ok: 200,
    run: async (as, _who) => {
      const form = await sharedForm();
      const id = await submission(form.id);
      return as({
        method: 'GET',
        url: `/responses/${id}?form_id=${form.id}&environment=development`,
      });
    },
  },
  {
    name: 'CSV',
    route: 'GET /responses',
    least: 'viewer',
    ok: 200,
    run: async (as, _who) => {
      const form = await sharedForm();
      return as({
        method: 'GET',
        url: `/responses?form_id=${form.id}&environment=development&format=csv`,
      });
    },
  },
  ...(['xlsx', 'ndjson'] as const).map(
    (format): Cell => ({
      name: `export as ${format}`,
      route: 'GET /responses',
      least: 'viewer',
      ok: 200,
      run: async (as) => {
        const form = await sharedForm();
        return as({
          method: 'GET',
          url: `/responses?form_id=${form.id}&environment=development&format=${format}`,
        });
      },
    }),
  ),
  {
    name: 'analytics',
    route: 'GET /analytics',
    least: 'viewer',
    ok: 200,
    run: (as, _who) => as({ method: 'GET', url: '/analytics?environment=development' }),
  },
  {
    name: 'mark read/unread',
    route: 'POST /responses/{id}/read',
    least: 'viewer',
    ok: 200,
    run: async (as, _who) =>
      as({ method: 'POST', url: `/responses/${await submission((await sharedForm()).id)}/read` }),
  },
  {
    name: 'star',
    route: 'POST /responses/{id}/star',
    least: 'viewer',
    ok: 200,
    run: async (as, _who) =>
      as({
        method: 'POST',
        url: `/responses/${await submission((await sharedForm()).id)}/star`,
        body: { starred: true },
      }),
  },
  {
    name: 'add a note',
    route: 'POST /responses/{id}/notes',
    least: 'viewer',
    ok: 200,
    run: async (as, who) =>
      as({
        method: 'POST',
        url: `/responses/${await submission((await sharedForm()).id)}/notes`,
        body: { text: `a note by the ${who}` },
      }),
  },
  {
    name: 'list webhooks',
    route: 'GET /webhooks',
    least: 'viewer',
    ok: 200,
    run: (as, _who) => as({ method: 'GET', url: '/webhooks?environment=development' }),
  },
  {
    name: 'list environments',
    route: 'GET /environments',
    sessionOnly: true,
    least: 'viewer',
    ok: 200,
    run: (as, _who) => as({ method: 'GET', url: '/environments' }),
  },
  {
    name: 'list members',
    route: 'GET /workspaces/{id}/members',
    sessionOnly: true,
    least: 'viewer',
    ok: 200,
    run: (as, _who) => as({ method: 'GET', url: `/workspaces/${shared}/members` }),
  },
  {
    name: 'create a form',
    route: 'POST /forms',
    least: 'editor',
    ok: 201,
    run: (as, who) =>
      as({
        method: 'POST',
        url: '/forms',
        body: {
          title: `By the ${who}`,
          environment: 'development',
          fields: [{ id: 'a', type: 'text', label: 'A' }],
        },
      }),
  },
  {
    name: 'edit a form',
    route: 'PUT /forms/{id}',
    least: 'editor',
    ok: 200,
    run: async (as, who) =>
      as({
        method: 'PUT',
        url: `/forms/${(await sharedForm()).id}`,
        body: { title: `Edited by ${who}` },
      }),
  },
  {
    name: 'publish a form',
    route: 'PUT /forms/{id}',
    least: 'editor',
    ok: 200,
    run: async (as, _who) =>
      as({
        method: 'PUT',
        url: `/forms/${(await sharedForm({ status: 'draft' })).id}`,
        body: { status: 'live' },
      }),
  },
  {
    name: 'save a working copy',
    route: 'PUT /forms/{id}/draft',
    least: 'editor',
    ok: 200,
    run: async (as, _who) =>
      as({
        method: 'PUT',
        url: `/forms/${(await sharedForm()).id}/draft`,
        body: { title: 'Next' },
      }),
  },
  {
    name: 'delete a form',
    route: 'DELETE /forms/{id}',
    least: 'editor',
    ok: 204,
    run: async (as, _who) => as({ method: 'DELETE', url: `/forms/${(await sharedForm()).id}` }),
  },
  {
    name: 'delete a response',
    route: 'DELETE /responses/{id}',
    least: 'editor',
    ok: 204,
    run: async (as, _who) =>
      as({ method: 'DELETE', url: `/responses/${await submission((await sharedForm()).id)}` }),
  },
  {
    name: 'add a webhook',
    route: 'POST /webhooks',
    least: 'editor',
    ok: 201,
    run: async (as, _who) =>
      as({
        method: 'POST',
        url: '/webhooks',
        body: {
          formId: (await sharedForm()).id,
          event: 'form.updated',
          url: 'https://hooks.example.com/roles',
        },
      }),
  },
  {
    name: 'create a secret key',
    route: 'POST /keys/secrets',
    sessionOnly: true,
    least: 'admin',
    ok: 201,
    run: (as, _who) => as({ method: 'POST', url: '/keys/secrets?environment=development' }),
  },
  {
    name: 'list keys',
    route: 'GET /keys',
    sessionOnly: true,
    least: 'admin',
    ok: 200,
    run: (as, _who) => as({ method: 'GET', url: '/keys?environment=development' }),
  },
  {
    name: 'create an environment',
    route: 'POST /environments',
    sessionOnly: true,
    least: 'admin',
    ok: 201,
    run: (as, who) =>
      as({ method: 'POST', url: '/environments', body: { name: `env-${who}-${Date.now()}` } }),
  },
  {
    name: "change a member's role",
    route: 'PATCH /workspaces/{id}/members/{userId}',
    sessionOnly: true,
    least: 'admin',
    ok: 200,
    run: async (as, _who) => {
      const someone = await signup(t);
      await addMember(shared, someone, 'viewer');
      return as({
        method: 'PATCH',
        url: `/workspaces/${shared}/members/${someone.id}`,
        body: { role: 'editor' },
      });
    },
  },
  {
    name: 'remove a member',
    route: 'DELETE /workspaces/{id}/members/{userId}',
    sessionOnly: true,
    least: 'admin',
    ok: 204,
    run: async (as, _who) => {
      const someone = await signup(t);
      await addMember(shared, someone, 'viewer');
      return as({ method: 'DELETE', url: `/workspaces/${shared}/members/${someone.id}` });
    },
  },
  {
    name: 'invite someone',
    route: 'POST /workspaces/{id}/invitations',
    sessionOnly: true,
    least: 'admin',
    ok: 201,
    run: (as, who) =>
      as({
        method: 'POST',
        url: `/workspaces/${shared}/invitations`,
        body: { email: `invitee-${slug(who)}-${Date.now()}@example.com`, role: 'editor' },
      }),
  },
  {
    name: 'list pending invitations',
    route: 'GET /workspaces/{id}/invitations',
    sessionOnly: true,
    least: 'admin',
    ok: 200,
    run: (as, _who) => as({ method: 'GET', url: `/workspaces/${shared}/invitations` }),
  },
  {
    name: 'revoke an invitation',
    route: 'DELETE /workspaces/{id}/invitations/{invitationId}',
    sessionOnly: true,
    least: 'admin',
    ok: 204,
    run: async (as, who) => {
      const sent = await sharedAs('owner', {
        method: 'POST',
        url: `/workspaces/${shared}/invitations`,
        body: { email: `revoked-${slug(who)}-${Date.now()}@example.com`, role: 'viewer' },
      });
      return as({ method: 'DELETE', url: `/workspaces/${shared}/invitations/${sent.body.id}` });
    },
  },
  {
    name: 'read the audit log',
    route: 'GET /workspaces/{id}/audit',
    sessionOnly: true,
    least: 'admin',
    ok: 200,
    run: (as, _who) => as({ method: 'GET', url: `/workspaces/${shared}/audit` }),
  },
  {
    name: 'invite an owner',
    route: 'POST /workspaces/{id}/invitations',
    sessionOnly: true,
    least: 'owner',
    ok: 201,
    run: (as, who) =>
      as({
        method: 'POST',
        url: `/workspaces/${shared}/invitations`,
        body: { email: `owner-${slug(who)}-${Date.now()}@example.com`, role: 'owner' },
      }),
  },
  {
    name: 'rename the workspace',
    route: 'PATCH /workspaces/{id}',
    sessionOnly: true,
    least: 'owner',
    ok: 200,
    run: (as, _who) => as({ method: 'PATCH', url: `/workspaces/${shared}`, body: { name: 'Acme' } }),
  },
  {
    name: 'make an owner',
    route: 'PATCH /workspaces/{id}/members/{userId}',
    sessionOnly: true,
    least: 'owner',
    ok: 200,
    run: async (as, _who) => {
      const someone = await signup(t);
      await addMember(shared, someone, 'viewer');
      return as({
        method: 'PATCH',
        url: `/workspaces/${shared}/members/${someone.id}`,
        body: { role: 'owner' },
      });
    },
  },
  {
    name: 'delete the workspace',
    route: 'DELETE /workspaces/{id}',
    sessionOnly: true,
    least: 'owner',
    ok: 204,
    run: async (as, _who) => {
      const doomed = await newWorkspace(world.owner, 'Doomed');
      for (const other of ['admin', 'editor', 'viewer'] as const)
        await addMember(doomed, world.members[other], other);
      return as({ method: 'DELETE', url: `/workspaces/${doomed}` }, doomed);
    },
  },

  // --- what the first cells leave out: every other route that acts in a workspace ---
  {
    name: 'list forms (older path)',
    route: 'GET /environments/{environment}/forms',
    least: 'viewer',
    ok: 200,
    publishable: 200,
    run: (as) => as({ method: 'GET', url: '/environments/development/forms' }),
  },
  {
    name: "a form's QR code",
    route: 'GET /forms/{id}/qr.svg',
    least: 'viewer',
    ok: 200,
    publishable: 200,
    run: async (as) =>
      as({ method: 'GET', url: `/forms/${(await sharedForm({ status: 'draft' })).id}/qr.svg` }),
  },
  {
    name: 'read a working copy',
    route: 'GET /forms/{id}/draft',
    least: 'viewer',
    ok: 200,
    run: async (as) => as({ method: 'GET', url: `/forms/${(await formWithWorkingCopy()).id}/draft` }),
  },
  {
    name: 'discard a working copy',
    route: 'DELETE /forms/{id}/draft',
    least: 'editor',
    ok: 204,
    run: async (as) => as({ method: 'DELETE', url: `/forms/${(await formWithWorkingCopy()).id}/draft` }),
  },
  {
    name: 'publish a working copy',
    route: 'POST /forms/{id}/draft/publish',
    least: 'editor',
    ok: 200,
    run: async (as) =>
      as({ method: 'POST', url: `/forms/${(await formWithWorkingCopy()).id}/draft/publish` }),
  },
  {
    name: 'read responses (older path)',
    route: 'GET /environments/{environment}/responses',
    least: 'viewer',
    ok: 200,
    run: async (as) =>
      as({ method: 'GET', url: `/environments/development/responses?form_id=${(await sharedForm()).id}` }),
  },
  {
    name: 'the counts of every form',
    route: 'GET /responses/summary',
    least: 'viewer',
    ok: 200,
    run: (as) => as({ method: 'GET', url: '/responses/summary?environment=development' }),
  },
  {
    name: "a response's file",
    route: 'GET /responses/{id}/files/{fileId}',
    least: 'viewer',
    ok: 200,
    run: async (as) => {
      const { responseId, fileId } = await responseWithFile();
      return as({ method: 'GET', url: `/responses/${responseId}/files/${fileId}` });
    },
  },
  {
    name: 'reply to a response',
    route: 'POST /responses/{id}/reply',
    least: 'viewer',
    ok: 200,
    run: async (as, who) => {
      const form = await sharedForm({ fields: [{ id: 'email', type: 'email', label: 'E-mail' }] });
      const response = await t.request({
        method: 'POST',
        url: `/forms/${form.id}/submit`,
        body: { answers: { email: `ada-${slug(who)}-${Date.now()}@example.com` } },
      });
      expect(response.status, response.text).toBe(201);
      return as({
        method: 'POST',
        url: `/responses/${response.body.id}/reply`,
        body: { message: `From the ${who}` },
      });
    },
  },
  {
    name: 'analytics per question',
    route: 'GET /analytics/questions',
    least: 'viewer',
    ok: 200,
    run: async (as) =>
      as({
        method: 'GET',
        url: `/analytics/questions?environment=development&form_id=${(await sharedForm()).id}`,
      }),
  },
  {
    name: 'drop-off per question',
    route: 'GET /analytics/drop-off',
    least: 'viewer',
    ok: 200,
    run: async (as) =>
      as({
        method: 'GET',
        url: `/analytics/drop-off?environment=development&form_id=${(await sharedForm()).id}`,
      }),
  },
  {
    name: 'analytics (older path)',
    route: 'GET /environments/{environment}/analytics',
    least: 'viewer',
    ok: 200,
    run: (as) => as({ method: 'GET', url: '/environments/development/analytics' }),
  },
  {
    name: 'read a webhook',
    route: 'GET /webhooks/{id}',
    least: 'viewer',
    ok: 200,
    run: async (as) => as({ method: 'GET', url: `/webhooks/${await sharedWebhook()}` }),
  },
  {
    name: "a webhook's deliveries",
    route: 'GET /webhooks/{id}/deliveries',
    least: 'viewer',
    ok: 200,
    run: async (as) => as({ method: 'GET', url: `/webhooks/${await sharedWebhook()}/deliveries` }),
  },
  {
    name: 'change a webhook',
    route: 'PATCH /webhooks/{id}',
    least: 'editor',
    ok: 200,
    run: async (as) =>
      as({ method: 'PATCH', url: `/webhooks/${await sharedWebhook()}`, body: { enabled: false } }),
  },
  {
    name: 'delete a webhook',
    route: 'DELETE /webhooks/{id}',
    least: 'editor',
    ok: 204,
    run: async (as) => as({ method: 'DELETE', url: `/webhooks/${await sharedWebhook()}` }),
  },
  {
    name: 'send a webhook a test',
    route: 'POST /webhooks/{id}/test',
    least: 'editor',
    ok: 202,
    run: async (as) => as({ method: 'POST', url: `/webhooks/${await sharedWebhook()}/test` }),
  },
  {
    // past the role's gate, the delivery is looked up: an unknown one is 404 to whoever may redeliver
    name: 'redeliver (an unknown delivery: 404 past the gate)',
    route: 'POST /webhooks/{id}/deliveries/{deliveryId}/redeliver',
    least: 'editor',
    ok: 404,
    run: async (as) =>
      as({
        method: 'POST',
        url: `/webhooks/${await sharedWebhook()}/deliveries/dlv_00000000000000000000000000/redeliver`,
      }),
  },
  {
    name: 'create a publishable key',
    route: 'POST /keys/publishable',
    sessionOnly: true,
    least: 'admin',
    ok: 201,
    run: (as) => as({ method: 'POST', url: '/keys/publishable?environment=development' }),
  },
  {
    name: 'delete a secret key',
    route: 'DELETE /keys/secrets/{keyId}',
    sessionOnly: true,
    least: 'admin',
    ok: 204,
    run: async (as) => as({ method: 'DELETE', url: `/keys/secrets/${await sharedKey('secrets')}` }),
  },
  {
    name: 'delete a publishable key',
    route: 'DELETE /keys/publishable/{keyId}',
    sessionOnly: true,
    least: 'admin',
    ok: 204,
    run: async (as) => as({ method: 'DELETE', url: `/keys/publishable/${await sharedKey('publishable')}` }),
  },
  {
    name: 'delete an environment',
    route: 'DELETE /environments/{name}',
    sessionOnly: true,
    least: 'admin',
    ok: 204,
    run: async (as) => {
      const name = `gone-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const made = await sharedAs('owner', { method: 'POST', url: '/environments', body: { name } });
      expect(made.status, made.text).toBe(201);
      return as({ method: 'DELETE', url: `/environments/${name}` });
    },
  },
];

/** Routes that act in no workspace: who they are for, and why no role decides them. */
const NOT_IN_A_WORKSPACE: Record<string, string> = {
  'GET /health': 'the service itself',
  'POST /auth/signup': 'an account, before any workspace',
  'POST /auth/login': 'an account',
  'POST /auth/logout': 'an account',
  'GET /auth/me': 'an account',
  'POST /auth/password': 'an account',
  'POST /auth/password-reset': 'an account, signed out',
  'POST /auth/password-reset/confirm': 'an account, signed out',
  'GET /workspaces': "the caller's own memberships",
  'POST /workspaces': 'makes a workspace; its caller owns it',
  'POST /invitations/accept': 'the invited address, before it is a member',
  'POST /invitations/preview': 'the holder of an invitation link, before accepting',
  'GET /v1/forms/{formId}/public': "the public: a live form's public view",
  'POST /forms/{id}/submit': 'the public (or a key): answering a form',
  'POST /forms/{id}/uploads': 'the public: a file for an answer',
  'GET /files/{token}': 'whoever holds a signed link',
  'POST /v1/forms/{formId}/events': "the public: a page's views and starts",
};

function expectedFor(cell: Cell, caller: Caller): number {
  if (caller === 'stranger') return 403;
  if (caller === 'editor cookie') return expectedFor(cell, 'editor');
  if (caller === 'publishable key') return cell.publishable ?? 403;
  if (caller === 'secret key')
    return !cell.sessionOnly && (cell.least === 'viewer' || cell.least === 'editor') ? cell.ok : 403;
  return ROLES.indexOf(caller) <= ROLES.indexOf(cell.least) ? cell.ok : 403;
}

function asCaller(caller: Caller): As {
  return (options, workspace = shared) => {
    if (caller === 'secret key') return t.request({ ...options, auth: secretKey });
    if (caller === 'publishable key') return t.request({ ...options, auth: publishableKey });
    if (caller === 'editor cookie')
      return t.request({
        ...options,
        headers: { ...editorCookie, 'x-intake-workspace': workspace, ...options.headers },
      });
    const user = caller === 'stranger' ? world.stranger : world.members[caller];
    return world.inWorkspace(workspace, user, options);
  };
}

describe('the role table, cell by cell (API.md §14)', () => {
  const rows = CELLS.flatMap((cell) => CALLERS.map((caller) => ({ cell, caller })));
  it.each(rows.map((row) => [`${row.caller}: ${row.cell.name} (${row.cell.route})`, row] as const))(
    '%s',
    async (_, { cell, caller }) => {
      const response = await cell.run(asCaller(caller), caller);
      const expected = expectedFor(cell, caller);
      if (expected === 403) expectProblem(response, 403, 'forbidden');
      else expect(response.status, response.text).toBe(expected);
    },
  );

  it('has a cell for every route that acts in a workspace', async () => {
    const document = await t.request({ method: 'GET', url: '/openapi.json' });
    const routes = Object.entries(document.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const covered = new Set(CELLS.map((cell) => cell.route));
    expect(routes.filter((route) => !covered.has(route) && !(route in NOT_IN_A_WORKSPACE))).toEqual([]);
    // and the table names no route the API lacks
    expect(
      [...covered, ...Object.keys(NOT_IN_A_WORKSPACE)].filter((route) => !routes.includes(route)),
    ).toEqual([]);
  });
});

describe("another workspace's ids (API.md §14): refused to every member as to a stranger", () => {
  /** What a lone user (no part in either workspace) gets: the answer the members must get too. */
  it('in paths, bodies, filters and cursors, never a 2xx and never another answer than a stranger’s', async () => {
    const theirs = world.stranger;
    const form = await createForm(t, theirs.token, {
      status: 'live',
      fields: [{ id: 'name', type: 'text', label: 'Name' }],
    });
    const sent = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { name: 'B' } },
    });
    expect(sent.status, sent.text).toBe(201);
    const response = sent.body.id as string;
    const hook = await t.request({
      method: 'POST',
      url: '/webhooks',
      auth: theirs.token,
      body: { formId: form.id, event: 'form.updated', url: 'https://hooks.example.com/theirs' },
    });
    expect(hook.status, hook.text).toBe(201);
    const q = `form_id=${form.id}&environment=development`;
    const requests: Array<Omit<RequestOptions, 'auth'>> = [
      { method: 'GET', url: `/forms/${form.id}/draft` },
      { method: 'PUT', url: `/forms/${form.id}`, body: { title: 'Taken' } },
      { method: 'DELETE', url: `/forms/${form.id}` },
      { method: 'GET', url: `/responses?${q}` },
      { method: 'GET', url: `/responses?${q}&format=csv` },
      { method: 'GET', url: `/responses/${response}?${q}` },
      { method: 'DELETE', url: `/responses/${response}` },
      { method: 'POST', url: `/responses/${response}/star`, body: { starred: true } },
      { method: 'POST', url: `/responses/${response}/notes`, body: { text: 'mine now' } },
      { method: 'GET', url: `/analytics?${q}` },
      { method: 'GET', url: `/analytics/questions?${q}` },
      { method: 'GET', url: `/analytics/drop-off?${q}` },
      { method: 'GET', url: `/webhooks/${hook.body.id}` },
      { method: 'GET', url: `/webhooks/${hook.body.id}/deliveries` },
      { method: 'PATCH', url: `/webhooks/${hook.body.id}`, body: { enabled: false } },
      {
        method: 'POST',
        url: '/webhooks',
        body: { formId: form.id, event: 'form.updated', url: 'https://hooks.example.com/x' },
      },
      { method: 'GET', url: `/workspaces/${theirs.workspaceId}/members` },
      { method: 'GET', url: `/workspaces/${theirs.workspaceId}/audit` },
      { method: 'GET', url: `/workspaces/${theirs.workspaceId}/invitations` },
    ];
    const lone = await signup(t);
    for (const request of requests) {
      const stranger = await t.request({ ...request, auth: lone.token });
      expect(stranger.status, `${request.method} ${request.url}: ${stranger.text}`).toBeGreaterThanOrEqual(
        400,
      );
      for (const role of ROLES) {
        const member = await sharedAs(role, request);
        expect({
          request: `${request.method} ${request.url}`,
          role,
          status: member.status,
          code: member.body?.code,
        }).toEqual({
          request: `${request.method} ${request.url}`,
          role,
          status: stranger.status,
          code: stranger.body?.code,
        });
      }
    }
    // nothing of theirs changed
    const still = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: theirs.token });
    expect(still.body.title).not.toBe('Taken');
    const kept = await t.request({ method: 'GET', url: `/responses/${response}?${q}`, auth: theirs.token });
    expect(kept.status).toBe(200);
    expect(kept.body.starred).toBe(false);
  });

  it('a cursor from another workspace pages through this one’s rows only', async () => {
    const theirs = await createForm(t, world.stranger.token, {
      status: 'live',
      fields: [{ id: 'name', type: 'text', label: 'Name' }],
    });
    for (let i = 0; i < 3; i++) await submission(theirs.id);
    const page = await t.request({
      method: 'GET',
      url: `/responses?form_id=${theirs.id}&environment=development&limit=1`,
      auth: world.stranger.token,
    });
    const cursor = page.body.nextCursor as string;
    expect(cursor).toBeTruthy();
    const ours = await sharedForm();
    await submission(ours.id);
    const listed = await sharedAs('viewer', {
      method: 'GET',
      url: `/responses?form_id=${ours.id}&environment=development&cursor=${encodeURIComponent(cursor)}`,
    });
    expect(listed.status, listed.text).toBe(200);
    for (const row of listed.body.data) expect(row.formId).toBe(ours.id);
    expect(JSON.stringify(listed.body)).not.toContain(theirs.id);
  });
});
