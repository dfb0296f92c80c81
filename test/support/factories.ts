import { randomBytes } from 'node:crypto';
import type { TestApp } from './app.js';

/** Builders of test data through the public API, each with unique values. */

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  /** Their personal workspace (API.md §14). */
  workspaceId: string;
}

export async function signup(
  t: TestApp,
  overrides: { email?: string; password?: string } = {},
): Promise<TestUser> {
  const email = overrides.email ?? `user-${randomBytes(6).toString('hex')}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  const response = await t.request({ method: 'POST', url: '/auth/signup', body: { email, password } });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${response.text}`);
  const token: string = response.body.token;
  const workspaces = await t.request({ method: 'GET', url: '/workspaces', auth: token });
  const personal = workspaces.body?.data?.find((workspace: { personal: boolean }) => workspace.personal);
  if (!personal) throw new Error(`no personal workspace: ${workspaces.status} ${workspaces.text}`);
  return { id: response.body.user.id, email, password, token, workspaceId: personal.id };
}

export async function createEnvironment(t: TestApp, user: TestUser, name: string): Promise<void> {
  const response = await t.request({
    method: 'POST',
    url: '/environments',
    auth: user.token,
    body: { name },
  });
  if (response.status !== 201) throw new Error(`environment failed: ${response.status} ${response.text}`);
}

export async function createKey(
  t: TestApp,
  user: TestUser,
  kind: 'secret' | 'publishable',
  environment = 'development',
): Promise<{ id: string; key: string }> {
  const path = kind === 'secret' ? '/keys/secrets' : '/keys/publishable';
  const response = await t.request({
    method: 'POST',
    url: `${path}?environment=${environment}`,
    auth: user.token,
  });
  if (response.status !== 201) throw new Error(`key failed: ${response.status} ${response.text}`);
  return { id: response.body.id, key: response.body.key };
}

/** The workspace that owns the form (tests that write rows straight into the tables need it). */
export async function workspaceOfForm(t: TestApp, formId: string): Promise<string> {
  const row = await t.app.intake.database.db
    .selectFrom('forms')
    .select('workspace_id')
    .where('id', '=', formId)
    .executeTakeFirstOrThrow();
  return row.workspace_id;
}

export function formBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Contact us',
    environment: 'development',
    fields: [
      { id: 'name', type: 'text', label: 'Name', required: true, maxLength: 100 },
      { id: 'email', type: 'email', label: 'E-mail', required: true, pii: true },
      { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support'] },
      { id: 'message', type: 'textarea', label: 'Message' },
    ],
    ...overrides,
  };
}

export async function createForm(
  t: TestApp,
  auth: string,
  overrides: Record<string, unknown> = {},
): Promise<any> {
  const response = await t.request({ method: 'POST', url: '/forms', auth, body: formBody(overrides) });
  if (response.status !== 201) throw new Error(`form failed: ${response.status} ${response.text}`);
  return response.body;
}
