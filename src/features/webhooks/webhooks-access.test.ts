import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem } from '../../../test/support/assertions.js';
import {
  type AuthRow,
  authMatrix,
  buildCallers,
  type Callers,
  CREATED,
  type Expected,
  managedLikeItsForm,
  NO_CONTENT,
  OK,
  type RowRequest,
  succeeds,
} from '../../../test/support/auth-matrix.js';
import { createEnvironment, createKey, signup, type TestUser } from '../../../test/support/factories.js';
import { createForm, type FormView } from '../../../test/support/forms.js';
import { json, type TypedResponse, typed } from '../../../test/support/json.js';
import {
  HOOK,
  WEBHOOK_KEYS,
  type WebhookPage,
  type WebhookView,
  webhooksApi,
} from '../../../test/support/webhooks.js';

/**
 * API.md §7: the webhook resource — who may manage webhooks, what the list (GET /webhooks) shows each caller,
 * and that the secret never leaves. The callers and their answers are test/support/auth-matrix.ts's: a webhook
 * is managed like its form (`managedLikeItsForm`), and the owner's cookie session answers as the owner session
 * does (without its CSRF token, every change is 403 `forbidden`).
 * The others: webhooks-manage, webhooks-ssrf, webhooks-events (shared helpers in test/support/webhooks.ts).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWebhook, webhookRow } = webhooksApi(() => t);

describe('who may manage webhooks', () => {
  /** The callers (test/support/auth-matrix.ts). */
  let world: Callers;

  beforeAll(async () => {
    world = await buildCallers(t);
  });

  /** The webhooks table, whole: sessions and keys are touched by use (last_used_at); the webhooks must not be. */
  const webhooksTable = async (): Promise<unknown> => JSON.parse(await dumpDatabase(t)).webhooks;

  /**
   * What a test acts on: a fresh form of the owner's `development` (a form has 20 webhooks at most) with a
   * webhook, and the webhooks table before the request.
   */
  interface Made {
    form: FormView;
    webhook: WebhookView;
    before: unknown;
  }
  const make = async (w: Callers): Promise<Made> => {
    const form = await createForm(t, w.owner.token);
    const webhook = await createWebhook(w.owner.token, { formId: form.id, event: 'response.updated' });
    return { form, webhook, before: await webhooksTable() };
  };

  /** A webhook is managed like its form. A refusal shows nothing of the webhook and changes no webhook. */
  const row = (
    name: string,
    request: (made: Made) => RowRequest,
    success: Expected,
    succeeded: (made: Made, response: Response) => Promise<void> | void,
  ): AuthRow<Callers, Made> => ({
    name,
    prepare: make,
    request: (_w, made) => request(made),
    expected: managedLikeItsForm(success),
    verify: async (_w, made, response, _caller, expected) => {
      if (succeeds(expected)) {
        await succeeded(made, response);
        return;
      }
      expect(response.text).not.toContain(HOOK);
      expect(await webhooksTable()).toEqual(made.before);
    },
  });

  describe('every caller on every route', () => {
    authMatrix({
      app: () => t,
      world: () => world,
      rows: [
        row(
          'POST /webhooks',
          (made) => ({
            method: 'POST',
            url: '/webhooks',
            body: { formId: made.form.id, event: 'form.updated', url: HOOK },
          }),
          CREATED,
          async (made, response) => {
            const created = json<WebhookView>(response);
            expect(created).toMatchObject({ formId: made.form.id, event: 'form.updated', url: HOOK });
            expect(await webhookRow(created.id)).toBeDefined();
          },
        ),
        row(
          'GET /webhooks?form_id=',
          (made) => ({ method: 'GET', url: `/webhooks?form_id=${made.form.id}` }),
          OK,
          (made, response) => {
            expect(json<WebhookPage>(response).data.map((w) => w.id)).toContain(made.webhook.id);
          },
        ),
        row(
          'GET /webhooks/{id}',
          (made) => ({ method: 'GET', url: `/webhooks/${made.webhook.id}` }),
          OK,
          (made, response) => {
            expect(json<WebhookView>(response).id).toBe(made.webhook.id);
          },
        ),
        row(
          'PATCH /webhooks/{id}',
          (made) => ({ method: 'PATCH', url: `/webhooks/${made.webhook.id}`, body: { enabled: false } }),
          OK,
          async (made, response) => {
            expect(json<WebhookView>(response).enabled).toBe(false);
            expect((await webhookRow(made.webhook.id))?.enabled).toBe(0);
          },
        ),
        row(
          'DELETE /webhooks/{id}',
          (made) => ({ method: 'DELETE', url: `/webhooks/${made.webhook.id}` }),
          NO_CONTENT,
          async (made) => {
            expect(await webhookRow(made.webhook.id)).toBeUndefined();
          },
        ),
      ],
    });
  });

  it('a secret key of another environment cannot list development either', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/webhooks?environment=development',
      auth: world.credentials['secret key (other env)'].auth,
    });
    expectProblem(response, 403, 'forbidden');
  });
});

describe('GET /webhooks', () => {
  let owner: TestUser;
  let other: TestUser;
  let formA: FormView;
  let formB: FormView;
  let stagingForm: FormView;
  const ids = { a: [] as string[], b: [] as string[], staging: [] as string[], other: [] as string[] };

  beforeAll(async () => {
    owner = await signup(t);
    other = await signup(t);
    await createEnvironment(t, owner, 'staging');
    formA = await createForm(t, owner.token);
    formB = await createForm(t, owner.token);
    stagingForm = await createForm(t, owner.token, { environment: 'staging' });
    const otherForm = await createForm(t, other.token);
    // one at a time: the list is newest first by creation time
    for (let i = 0; i < 3; i++) {
      ids.a.push((await createWebhook(owner.token, { formId: formA.id, url: `${HOOK}/a${i}` })).id);
      ids.b.push((await createWebhook(owner.token, { formId: formB.id, url: `${HOOK}/b${i}` })).id);
    }
    ids.staging.push((await createWebhook(owner.token, { formId: stagingForm.id })).id);
    ids.other.push((await createWebhook(other.token, { formId: otherForm.id })).id);
  });

  const list = async (url: string, auth = owner.token) =>
    typed<WebhookPage>(await t.request({ method: 'GET', url, auth }));
  const idsOf = (response: TypedResponse<WebhookPage>) => response.body.data.map((w) => w.id);
  const interleaved = () => [0, 1, 2].flatMap((i) => [ids.a[i], ids.b[i]]).reverse();

  it("lists one form's webhooks, newest first, in the list envelope", async () => {
    const response = await list(`/webhooks?form_id=${formA.id}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'nextCursor']);
    expect(idsOf(response)).toEqual([...ids.a].reverse());
    expect(response.body.nextCursor).toBeNull();
    for (const webhook of response.body.data) expect(Object.keys(webhook).sort()).toEqual(WEBHOOK_KEYS);
  });

  it("lists every webhook of the caller's environment, and only the caller's", async () => {
    expect(idsOf(await list('/webhooks?environment=development'))).toEqual(interleaved());
    expect(idsOf(await list('/webhooks?environment=staging'))).toEqual(ids.staging);
    expect(idsOf(await list('/webhooks?environment=development', other.token))).toEqual(ids.other);
    expect(idsOf(await list('/webhooks?environment=production'))).toEqual([]);
  });

  it('lists with a secret key: its own environment only', async () => {
    const key = await createKey(t, owner, 'secret', 'staging');
    expect(idsOf(await list('/webhooks?environment=staging', key.key))).toEqual(ids.staging);
    expect(idsOf(await list(`/webhooks?form_id=${stagingForm.id}`, key.key))).toEqual(ids.staging);
    expectProblem(await list('/webhooks?environment=development', key.key), 403, 'forbidden');
    expectProblem(await list(`/webhooks?form_id=${formA.id}`, key.key), 403, 'forbidden');
  });

  it('takes form_id and environment together when they agree; 403 form_not_in_environment when not', async () => {
    expect(idsOf(await list(`/webhooks?form_id=${formA.id}&environment=development`))).toEqual(
      [...ids.a].reverse(),
    );
    expectProblem(
      await list(`/webhooks?form_id=${formA.id}&environment=staging`),
      403,
      'form_not_in_environment',
    );
  });

  it('pages with limit and cursor, each webhook once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await list(
        `/webhooks?environment=development&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(response.status).toBe(200);
      expect(response.body.data.length).toBeLessThanOrEqual(4);
      seen.push(...idsOf(response));
      cursor = response.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(interleaved());
  });

  it.each([
    ['/webhooks', 400, 'invalid_parameter'],
    ['/webhooks?form_id=&environment=', 400, 'invalid_parameter'],
    ['/webhooks?environment=Not%20Valid', 400, 'invalid_environment'],
    ['/webhooks?environment=nowhere', 404, 'environment_not_found'],
    ['/webhooks?form_id=frm_nope', 404, 'not_found'],
    ['/webhooks?environment=development&limit=0', 400, 'invalid_parameter'],
    ['/webhooks?environment=development&limit=101', 400, 'invalid_parameter'],
    ['/webhooks?environment=development&cursor=garbage', 400, 'invalid_parameter'],
  ])('GET %s is %i %s', async (url, status, code) => {
    expectProblem(await list(url), status, code);
  });

  it('names both parameters when neither is given', async () => {
    const response = await list('/webhooks');
    expect(response.body.errors!.map((e) => e.field).sort()).toEqual(['environment', 'form_id']);
  });

  it("another user's form is 403 not_owner", async () => {
    expectProblem(await list(`/webhooks?form_id=${formA.id}`, other.token), 403, 'not_owner');
  });
});

describe('the secret never leaves', () => {
  it('is in no response of any route that shows the webhook, and stored only encrypted', async () => {
    const user = await signup(t);
    const marker = 'whsec_bWFya2VyLXNlY3JldC12YWx1ZQ==';
    const form = await createForm(t, user.token, {
      webhooks: [{ event: 'form.updated', url: HOOK, secret: marker }],
    });
    const webhook = await createWebhook(user.token, { formId: form.id, secret: marker });
    const responses = [
      await t.request({ method: 'GET', url: `/webhooks/${webhook.id}`, auth: user.token }),
      await t.request({ method: 'GET', url: `/webhooks?form_id=${form.id}`, auth: user.token }),
      await t.request({ method: 'GET', url: '/webhooks?environment=development', auth: user.token }),
      await t.request({
        method: 'PATCH',
        url: `/webhooks/${webhook.id}`,
        auth: user.token,
        body: { secret: marker },
      }),
      await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token }),
      await t.request({ method: 'GET', url: '/forms?environment=development', auth: user.token }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.text).not.toContain('bWFya2Vy');
      expect(response.text).not.toContain('marker');
    }
    expect(await dumpDatabase(t)).not.toContain('bWFya2Vy');
  });
});
