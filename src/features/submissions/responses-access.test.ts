import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import {
  type AuthRow,
  authMatrix,
  buildCallers,
  type Callers,
  managedLikeItsForm,
  NO_CONTENT,
  OK,
  succeeds,
} from '../../../test/support/auth-matrix.js';
import type { FormView } from '../../../test/support/forms.js';
import {
  ENDPOINTS,
  type Endpoint,
  expectSuccess,
  type Owner,
  responsesApi,
} from '../../../test/support/responses.js';

/**
 * API.md §6.2: the owner's inbox — who may read and change submissions, on every route, and what each refusal
 * leaves untouched. The callers and their answers are test/support/auth-matrix.ts's: a submission is managed
 * like its form (`managedLikeItsForm`), and the owner's cookie session answers as the owner session does
 * (without its CSRF token, every change is 403 `forbidden`).
 * The others: responses-list, responses-one (shared helpers in test/support/responses.ts).
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000, monthlyQuota: 0 });
});
afterAll(async () => {
  await t.close();
});

const { liveForm, submitOne, listIds, requestOf, call, expectUntouched } = responsesApi(() => t);

describe('who may read and change submissions', () => {
  /** The callers (test/support/auth-matrix.ts), each user with a live form of their `development`. */
  interface World extends Callers {
    a: Owner;
    b: Owner;
  }
  let world: World;
  let a: Owner;
  let b: Owner;
  let aSecret: string;
  const SECRET_ANSWER = 'Ada the secret submitter';

  beforeAll(async () => {
    const callers = await buildCallers(t);
    a = { user: callers.owner, form: await liveForm(callers.owner) };
    b = { user: callers.other, form: await liveForm(callers.other) };
    aSecret = callers.keys.secret.key;
    world = { ...callers, a, b };
  });

  const fresh = () => submitOne(a.form, { answers: { name: SECRET_ANSWER, email: 'ada@example.com' } });

  const ROUTES: Record<Endpoint, string> = {
    list: 'GET /responses',
    get: 'GET /responses/{id}',
    read: 'POST /responses/{id}/read',
    star: 'POST /responses/{id}/star',
    notes: 'POST /responses/{id}/notes',
    delete: 'DELETE /responses/{id}',
  };

  /**
   * A fresh submission of the owner's form, worked on one route: managed like its form. A refusal
   * leaks nothing of the submission and leaves it as it was; a success answers with it.
   */
  const row = (endpoint: Endpoint, scoped: boolean): AuthRow<World, string> => ({
    name: `${ROUTES[endpoint]} (${endpoint}${scoped ? '' : ', by id alone'})`,
    prepare: fresh,
    request: (w, id) => requestOf(endpoint, w.a.form, id, scoped ? undefined : ''),
    expected: managedLikeItsForm(endpoint === 'delete' ? NO_CONTENT : OK),
    verify: async (_w, id, response, _caller, expected) => {
      if (succeeds(expected)) {
        expectSuccess(endpoint, response, id);
        return;
      }
      expect(response.text).not.toContain(SECRET_ANSWER);
      expect(response.text).not.toContain('ada@example.com');
      await expectUntouched(id);
    },
  });

  describe('every caller on every route, and nothing changes or leaks when refused', () => {
    authMatrix({
      app: () => t,
      world: () => world,
      rows: [
        ...ENDPOINTS.map((endpoint) => row(endpoint, true)),
        // without form_id and environment: guessing the id gets a stranger no further
        ...(['read', 'star', 'notes', 'delete'] as const).map((endpoint) => row(endpoint, false)),
      ],
    });
  });

  describe.each(ENDPOINTS)('%s', (endpoint) => {
    it('an unknown form → 404 not_found', async () => {
      const id = await fresh();
      const response = await call(
        endpoint,
        a.user.token,
        a.form,
        id,
        'form_id=frm_nope&environment=development',
      );
      expectProblem(response, 404, 'not_found');
      await expectUntouched(id);
    });

    it('a form of another environment than `environment` → 403 form_not_in_environment', async () => {
      const id = await fresh();
      const response = await call(
        endpoint,
        a.user.token,
        a.form,
        id,
        `form_id=${a.form.id}&environment=production`,
      );
      expectProblem(response, 403, 'form_not_in_environment');
      await expectUntouched(id);
    });

    it('an invalid environment name → 400 invalid_environment', async () => {
      const id = await fresh();
      const response = await call(
        endpoint,
        a.user.token,
        a.form,
        id,
        `form_id=${a.form.id}&environment=Not%20Valid`,
      );
      expectProblem(response, 400, 'invalid_environment');
      await expectUntouched(id);
    });
  });

  describe.each(['get', 'read', 'star', 'notes', 'delete'] as const)('%s of one submission', (endpoint) => {
    it('an unknown submission → 404 not_found', async () => {
      expectProblem(await call(endpoint, a.user.token, a.form, 'sub_doesnotexist'), 404, 'not_found');
      expectProblem(await call(endpoint, aSecret, a.form, 'sub_doesnotexist'), 404, 'not_found');
    });

    it("another user's submission named with the caller's own form → 404, unchanged", async () => {
      const id = await fresh();
      const response = await call(endpoint, b.user.token, b.form, id);
      expectProblem(response, 404, 'not_found');
      expect(response.text).not.toContain(SECRET_ANSWER);
      await expectUntouched(id);
    });

    it("a submission of the owner's other form named with form_id of this one → 404", async () => {
      const other = await liveForm(a.user);
      const id = await fresh();
      const response = await call(endpoint, a.user.token, other, id);
      expectProblem(response, 404, 'not_found');
      await expectUntouched(id);
    });
  });

  describe.each(['read', 'star', 'notes', 'delete'] as const)('%s without a scope', (endpoint) => {
    it('a right environment alone is accepted, a wrong one is 403 form_not_in_environment', async () => {
      const id = await fresh();
      expectProblem(
        await call(endpoint, a.user.token, a.form, id, 'environment=production'),
        403,
        'form_not_in_environment',
      );
      await expectUntouched(id);
      expectSuccess(endpoint, await call(endpoint, a.user.token, a.form, id, 'environment=development'), id);
    });
  });

  it.each([
    ['form_id missing', (form: FormView) => `environment=${form.environment}`, 'invalid_parameter'],
    ['form_id empty', (form: FormView) => `form_id=&environment=${form.environment}`, 'invalid_parameter'],
    ['environment missing', (form: FormView) => `form_id=${form.id}`, 'invalid_environment'],
    ['environment empty', (form: FormView) => `form_id=${form.id}&environment=`, 'invalid_environment'],
    [
      'format=xml',
      (form: FormView) => `form_id=${form.id}&environment=${form.environment}&format=xml`,
      'invalid_parameter',
    ],
    [
      'format=json',
      (form: FormView) => `form_id=${form.id}&environment=${form.environment}&format=json`,
      'invalid_parameter',
    ],
  ])('list with %s → 400 %s', async (_name, query, code) => {
    const response = await t.request({
      method: 'GET',
      url: `/responses?${query(a.form)}`,
      auth: a.user.token,
    });
    expectProblem(response, 400, code);
  });

  it.each([
    ['form_id missing', (form: FormView) => `environment=${form.environment}`, 'invalid_parameter'],
    ['environment missing', (form: FormView) => `form_id=${form.id}`, 'invalid_environment'],
  ])('single read with %s → 400 %s', async (_name, query, code) => {
    const id = await fresh();
    const response = await t.request({
      method: 'GET',
      url: `/responses/${id}?${query(a.form)}`,
      auth: a.user.token,
    });
    expectProblem(response, 400, code);
  });

  it("one user's list never shows another user's submissions", async () => {
    const aId = await fresh();
    const bId = await submitOne(b.form);
    const aIds = await listIds(a.user.token, a.form);
    const bIds = await listIds(b.user.token, b.form);
    expect(aIds).toContain(aId);
    expect(aIds).not.toContain(bId);
    expect(bIds).toEqual([bId]);
  });
});
