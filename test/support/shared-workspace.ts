import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { insertMember } from '../../src/features/workspaces/repo.js';
import type { Role } from '../../src/platform/roles.js';
import { nowIso } from '../../src/platform/time.js';
import { createTestApp, type RequestOptions, type Response, type TestApp } from './app.js';
import { signup, type TestUser } from './factories.js';

/**
 * A workspace shared by one member of each role (API.md §14), on an app of its own, with a
 * stranger who belongs to none of it: what the workspaces' tests and the role table stand on.
 */
export interface SharedWorkspace {
  t: TestApp;
  owner: TestUser;
  /** A user with no part in the shared workspace. */
  stranger: TestUser;
  /** One user per role in the shared workspace (the owner made it). */
  members: Record<Role, TestUser>;
  /** The shared workspace's id. */
  shared: string;
  /** Members join by invitation (invitations.test.ts); the tests add them straight into the table. */
  addMember(workspaceId: string, user: TestUser, role: Role): Promise<void>;
  /** A request acting in `workspace` (the header), as `user`. */
  inWorkspace(workspace: string, user: TestUser, options: Omit<RequestOptions, 'auth'>): Promise<Response>;
  /** A request acting in the shared workspace as its member of `role`. */
  sharedAs(role: Role, options: Omit<RequestOptions, 'auth'>): Promise<Response>;
  newWorkspace(user: TestUser, name?: string): Promise<string>;
  /** A live form of the shared workspace's `development`, made by its owner. */
  sharedForm(overrides?: Record<string, unknown>): Promise<{ id: string }>;
  /** A submission to `formId`; its id. */
  submission(formId: string): Promise<string>;
  close(): Promise<void>;
}

export async function startSharedWorkspace(overrides: Partial<Config> = {}): Promise<SharedWorkspace> {
  const t = await createTestApp(overrides);
  const addMember = (workspaceId: string, user: TestUser, role: Role) =>
    insertMember(t.app.intake.database.db, { workspaceId, userId: user.id, role, joinedAt: nowIso() });
  const inWorkspace = (workspace: string, user: TestUser, options: Omit<RequestOptions, 'auth'>) =>
    t.request({
      ...options,
      auth: user.token,
      headers: { 'x-intake-workspace': workspace, ...options.headers },
    });
  const newWorkspace = async (user: TestUser, name = 'Acme') => {
    const response = await t.request({
      method: 'POST',
      url: '/workspaces',
      auth: user.token,
      body: { name },
    });
    expect(response.status, response.text).toBe(201);
    return response.body.id as string;
  };

  const owner = await signup(t);
  const stranger = await signup(t);
  const shared = await newWorkspace(owner);
  const members = { owner } as Record<Role, TestUser>;
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    members[role] = await signup(t);
    await addMember(shared, members[role], role);
  }
  const sharedAs = (role: Role, options: Omit<RequestOptions, 'auth'>) =>
    inWorkspace(shared, members[role], options);

  return {
    t,
    owner,
    stranger,
    members,
    shared,
    addMember,
    inWorkspace,
    sharedAs,
    newWorkspace,
    async sharedForm(overrides = {}) {
      const response = await sharedAs('owner', {
        method: 'POST',
        url: '/forms',
        body: {
          title: 'Shared',
          environment: 'development',
          status: 'live',
          fields: [{ id: 'name', type: 'text', label: 'Name' }],
          ...overrides,
        },
      });
      expect(response.status, response.text).toBe(201);
      return response.body;
    },
    async submission(formId) {
      const response = await t.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        body: { answers: { name: 'Ada' } },
      });
      expect(response.status, response.text).toBe(201);
      return response.body.id as string;
    },
    close: () => t.close(),
  };
}
