import { randomBytes } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { expect } from 'vitest';
import type { FormOut, PublicFormOut } from '../../src/features/forms/schemas.js';
import type { Response, TestApp } from './app.js';
import { createForm as createAnyForm, createEnvironment, signup, type TestUser } from './factories.js';
import { type Page, typed } from './json.js';

/** What the form tests (src/features/forms/forms-*.test.ts) share: views, constants, requests. */

/** A form as its owner (or a secret key) reads it. */
export type FormView = Static<typeof FormOut>;
/** A form as anyone else (or a publishable key) reads it. */
export type PublicFormView = Static<typeof PublicFormOut>;
export type FormPage = Page<FormView>;
export type PublicFormPage = Page<PublicFormView>;

export const STATUSES = ['draft', 'live', 'active', 'disabled', 'archived'] as const;
export const FULL_KEYS = [
  'access',
  'autoResponse',
  'createdAt',
  'environment',
  'fields',
  'hasDraft',
  'id',
  'logic',
  'notifications',
  'retention',
  'spamProtection',
  'status',
  'storage',
  'title',
  'translations',
  'ui',
  'updatedAt',
  'userId',
  'version',
  'webhooks',
];
export const PUBLIC_KEYS = [
  'access',
  'environment',
  'fields',
  'id',
  'language',
  'languages',
  'logic',
  'spamProtection',
  'status',
  'title',
  'ui',
  'version',
];
export const DEFAULT_UI = { theme: 'auto', progress: 'steps', layout: 'one-by-one' };
export const DEFAULT_STORAGE = { mode: 'owner', pii: 'plain' };
export const CAPTCHA_SECRET = 'captcha-secret-0123456789';

export const uniqueName = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;
export const keysOf = (value: object) => Object.keys(value).sort();

/** A form through the API (factories.ts), typed as the owner's view. */
export const createForm = (t: TestApp, auth: string, overrides: Record<string, unknown> = {}) =>
  createAnyForm(t, auth, overrides) as Promise<FormView>;

export function expectFieldError(response: Response, field: string, code?: string): void {
  expect(response.body.errors).toEqual(
    expect.arrayContaining([expect.objectContaining(code ? { field, code } : { field })]),
  );
}

export function expectPublicView(view: PublicFormView): void {
  expect(keysOf(view)).toEqual(PUBLIC_KEYS);
  expect(keysOf(view.spamProtection)).toEqual(['captcha', 'honeypot']);
  for (const field of view.fields) {
    expect(field).not.toHaveProperty('pii');
    expect(field).not.toHaveProperty('piiMode');
  }
}

/** A form with every configuration member set, to see what each view shows. */
export const richForm = (overrides: Record<string, unknown> = {}) => ({
  fields: [
    { id: 'name', type: 'text', label: 'Name', required: true, maxLength: 100, placeholder: 'Ada' },
    { id: 'email', type: 'email', label: 'E-mail', required: true, pii: true, piiMode: 'hashed' },
    {
      id: 'topic',
      type: 'select',
      label: 'Topic',
      options: ['sales', { value: 'support', label: 'Support' }],
    },
    { id: 'budget', type: 'number', label: 'Budget', min: 0, max: 1000, integer: true },
  ],
  ui: { theme: 'dark', progress: 'bar', layout: 'classic', submitLabel: 'Send' },
  storage: { mode: 'owner', pii: 'masked' },
  logic: { rules: [{ when: { field: 'topic', op: 'equals', value: 'sales' }, show: ['budget'] }] },
  retention: { days: 30 },
  notifications: { email: { enabled: true, to: ['owner@example.com'] } },
  autoResponse: { enabled: true, emailField: 'email', subject: 'Thanks {{name}}', body: 'We got it.' },
  spamProtection: {
    honeypot: { field: 'website' },
    captcha: { provider: 'turnstile', siteKey: 'site-key-1', secret: CAPTCHA_SECRET },
    rules: [{ field: 'name', op: 'contains', value: 'viagra' }],
    action: 'flag',
  },
  ...overrides,
});

/**
 * The form requests of one test file, against its app (`app()` is read at each call: the app is
 * built in the file's beforeAll). `get` answers the owner's view unless told otherwise
 * (`get<PublicFormView>(…)`, `get<FormPage>('/forms?…')`).
 */
export function formsApi(app: () => TestApp) {
  const get = async <T = FormView>(url: string, auth?: string, headers?: Record<string, string>) =>
    typed<T>(await app().request({ method: 'GET', url, auth, headers }));
  const post = async (body: unknown, auth?: string) =>
    typed<FormView>(await app().request({ method: 'POST', url: '/forms', auth, body }));
  const put = async (
    id: string,
    body: unknown,
    auth?: string,
    headers?: Record<string, string>,
    query = '',
  ) =>
    typed<FormView>(await app().request({ method: 'PUT', url: `/forms/${id}${query}`, auth, body, headers }));
  const del = (id: string, auth?: string, query = '') =>
    app().request({ method: 'DELETE', url: `/forms/${id}${query}`, auth });

  /** A user with an environment of a unique name, so that anonymous (all-users) lists see only this test's forms. */
  async function userWithUniqueEnvironment(): Promise<{ user: TestUser; env: string }> {
    const user = await signup(app());
    const env = uniqueName('env');
    await createEnvironment(app(), user, env);
    return { user, env };
  }

  /** Creates forms one after another, a few ms apart so that each has its own createdAt. */
  async function createSeries(auth: string, count: number, overrides: Record<string, unknown> = {}) {
    const forms: FormView[] = [];
    for (let i = 0; i < count; i++) {
      forms.push(await createForm(app(), auth, { title: `Form ${i}`, ...overrides }));
      // A fixed wait on purpose: the lists order by createdAt (ms precision), and these tests
      // want each form in its own millisecond, not an order decided by the id tie-break.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    return forms;
  }

  return { get, post, put, del, userWithUniqueEnvironment, createSeries };
}
