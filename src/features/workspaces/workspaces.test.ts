import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  type RequestOptions,
  type Response,
  type TestApp,
} from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { ROLES, type Role } from '../../platform/roles.js';
import { nowIso } from '../../platform/time.js';
import { insertMember } from './repo.js';

/** API.md §14: workspaces, members, roles; the role table checked cell by cell. */

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
/** One user per role in the shared workspace `shared` (the owner made it). */
const members = {} as Record<Role, TestUser>;
let shared: string;

/** Members join by invitation (invitations.test.ts); here the tests add them straight into the table. */
async function addMember(workspaceId: string, user: TestUser, role: Role): Promise<void> {
  await insertMember(t.app.intake.database.db, { workspaceId, userId: user.id, role, joinedAt: nowIso() });
}

/** A request acting in `workspace` (the header), as `user`. */
function inWorkspace(
  workspace: string,
  user: TestUser,
  options: Omit<RequestOptions, 'auth'>,
): Promise<Response> {
  return t.request({
    ...options,
    auth: user.token,
    headers: { 'x-intake-workspace': workspace, ...options.headers },
  });
}

const sharedAs = (role: Role, options: Omit<RequestOptions, 'auth'>) =>
  inWorkspace(shared, members[role], options);

async function newWorkspace(user: TestUser, name = 'Acme'): Promise<string> {
  const response = await t.request({ method: 'POST', url: '/workspaces', auth: user.token, body: { name } });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

/** A form of the shared workspace, made by its owner. */
async function sharedForm(overrides: Record<string, unknown> = {}): Promise<{ id: string }> {
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
}

async function submission(formId: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: `/forms/${formId}/submit`,
    body: { answers: { name: 'Ada' } },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signup(t);
  stranger = await signup(t);
  shared = await newWorkspace(owner);
  members.owner = owner;
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    members[role] = await signup(t);
    await addMember(shared, members[role], role);
  }
});
afterAll(() => t?.close());

describe('workspaces (API.md §14)', () => {
  it('sign-up makes a personal workspace, listed first with the owner role', async () => {
    const user = await signup(t);
    const response = await t.request({ method: 'GET', url: '/workspaces', auth: user.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        id: user.workspaceId,
        name: 'Personal',
        personal: true,
        role: 'owner',
        createdAt: expect.any(String),
      },
    ]);
  });

  it('POST /workspaces: 201, its caller the owner, development and production made with it', async () => {
    const user = await signup(t);
    const created = await t.request({
      method: 'POST',
      url: '/workspaces',
      auth: user.token,
      body: { name: ' Team ' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Team', personal: false, role: 'owner' });
    expect(created.body.id).toMatch(/^wsp_[0-9a-z]{26}$/);
    const environments = await inWorkspace(created.body.id, user, { method: 'GET', url: '/environments' });
    expect(environments.body.data.map((row: { name: string }) => row.name).sort()).toEqual([
      'development',
      'production',
    ]);
    const list = await t.request({ method: 'GET', url: '/workspaces', auth: user.token });
    expect(list.body.data.map((row: { personal: boolean }) => row.personal)).toEqual([true, false]);
  });

  it('a member lists the shared workspace with their role', async () => {
    const response = await t.request({ method: 'GET', url: '/workspaces', auth: members.editor.token });
    expect(response.body.data[1]).toMatchObject({ id: shared, role: 'editor', personal: false });
  });

  it('a key never manages workspaces: 403', async () => {
    const key = await t.request({
      method: 'POST',
      url: '/keys/secrets?environment=development',
      auth: owner.token,
    });
    const response = await t.request({ method: 'GET', url: '/workspaces', auth: key.body.key });
    expectProblem(response, 403, 'forbidden');
  });
});

describe('choosing the workspace of a request', () => {
  it('the header and ?workspace= choose it; without either, the personal one', async () => {
    const form = await sharedForm({ title: 'Chosen' });
    const byHeader = await sharedAs('viewer', { method: 'GET', url: `/forms/${form.id}` });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body.userId).toBe(owner.id); // the full view: its creator is named
    const byQuery = await t.request({
      method: 'GET',
      url: `/forms?environment=development&workspace=${shared}`,
      auth: members.viewer.token,
    });
    expect(byQuery.status, byQuery.text).toBe(200);
    expect(byQuery.body.data.map((row: { id: string }) => row.id)).toContain(form.id);
    const personal = await t.request({
      method: 'GET',
      url: '/forms?environment=development',
      auth: members.viewer.token,
    });
    expect(personal.body.data.map((row: { id: string }) => row.id)).not.toContain(form.id);
  });

  it('a workspace the user is no member of is 403; a malformed id 404', async () => {
    expectProblem(
      await inWorkspace(shared, stranger, { method: 'GET', url: '/environments' }),
      403,
      'forbidden',
    );
    expectProblem(
      await inWorkspace(owner.workspaceId, members.viewer, { method: 'GET', url: '/environments' }),
      403,
      'forbidden',
    );
    expectProblem(
      await inWorkspace('wsp_nope', owner, { method: 'GET', url: '/environments' }),
      404,
      'not_found',
    );
    const byQuery = await t.request({ method: 'GET', url: '/environments?workspace=x', auth: owner.token });
    expectProblem(byQuery, 404, 'not_found');
  });

  it('a key acts in its own workspace only: naming another is 403', async () => {
    const made = await sharedAs('admin', { method: 'POST', url: '/keys/secrets?environment=development' });
    expect(made.status, made.text).toBe(201);
    const form = await sharedForm({ title: 'Keyed' });
    const own = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: made.body.key });
    expect(own.status).toBe(200);
    expect(own.body.userId).toBe(owner.id);
    const same = await t.request({
      method: 'GET',
      url: `/forms/${form.id}`,
      auth: made.body.key,
      headers: { 'x-intake-workspace': shared },
    });
    expect(same.status).toBe(200);
    const other = await t.request({
      method: 'GET',
      url: `/forms/${form.id}`,
      auth: made.body.key,
      headers: { 'x-intake-workspace': owner.workspaceId },
    });
    expectProblem(other, 403, 'forbidden');
  });
});

/** §14's table: each action, how to set it up and ask for it, and the least role that may. */
interface Cell {
  name: string;
  least: Role;
  /** The request as `role`; it may set up what it needs first. */
  run(role: Role): Promise<Response>;
  /** The status a permitted request answers. */
  ok: number;
}

const CELLS: Cell[] = [
  {
    name: 'list forms',
    least: 'viewer',
    ok: 200,
    run: (role) => sharedAs(role, { method: 'GET', url: '/forms?environment=development' }),
  },
  {
    name: 'read a form (full view)',
    least: 'viewer',
    ok: 200,
    run: async (role) =>
      sharedAs(role, { method: 'GET', url: `/forms/${(await sharedForm({ status: 'draft' })).id}` }),
  },
  {
    name: 'read responses',
    least: 'viewer',
    ok: 200,
    run: async (role) => {
      const form = await sharedForm();
      await submission(form.id);
      return sharedAs(role, { method: 'GET', url: `/responses?form_id=${form.id}&environment=development` });
    },
  },
  {
    name: 'read one response',
    least: 'viewer',
    ok: 200,
    run: async (role) => {
      const form = await sharedForm();
      const id = await submission(form.id);
      return sharedAs(role, {
        method: 'GET',
        url: `/responses/${id}?form_id=${form.id}&environment=development`,
      });
    },
  },
  {
    name: 'CSV',
    least: 'viewer',
    ok: 200,
    run: async (role) => {
      const form = await sharedForm();
      return sharedAs(role, {
        method: 'GET',
        url: `/responses?form_id=${form.id}&environment=development&format=csv`,
      });
    },
  },
  {
    name: 'XLSX',
    least: 'viewer',
    ok: 200,
    run: async (role) => {
      const form = await sharedForm();
      return sharedAs(role, {
        method: 'GET',
        url: `/responses?form_id=${form.id}&environment=development&format=xlsx`,
      });
    },
  },
  {
    name: 'NDJSON',
    least: 'viewer',
    ok: 200,
    run: async (role) => {
      const form = await sharedForm();
      return sharedAs(role, {
        method: 'GET',
        url: `/responses?form_id=${form.id}&environment=development&format=ndjson`,
      });
    },
  },
  {
    name: 'analytics',
    least: 'viewer',
    ok: 200,
    run: (role) => sharedAs(role, { method: 'GET', url: '/analytics?environment=development' }),
  },
  {
    name: 'mark read/unread',
    least: 'viewer',
    ok: 200,
    run: async (role) =>
      sharedAs(role, { method: 'POST', url: `/responses/${await submission((await sharedForm()).id)}/read` }),
  },
  {
    name: 'star',
    least: 'viewer',
    ok: 200,
    run: async (role) =>
      sharedAs(role, {
        method: 'POST',
        url: `/responses/${await submission((await sharedForm()).id)}/star`,
        body: { starred: true },
      }),
  },
  {
    name: 'add a note',
    least: 'viewer',
    ok: 200,
    run: async (role) =>
      sharedAs(role, {
        method: 'POST',
        url: `/responses/${await submission((await sharedForm()).id)}/notes`,
        body: { text: `a note by the ${role}` },
      }),
  },
  {
    name: 'list webhooks',
    least: 'viewer',
    ok: 200,
    run: (role) => sharedAs(role, { method: 'GET', url: '/webhooks?environment=development' }),
  },
  {
    name: 'list environments',
    least: 'viewer',
    ok: 200,
    run: (role) => sharedAs(role, { method: 'GET', url: '/environments' }),
  },
  {
    name: 'list members',
    least: 'viewer',
    ok: 200,
    run: (role) => sharedAs(role, { method: 'GET', url: `/workspaces/${shared}/members` }),
  },
  {
    name: 'create a form',
    least: 'editor',
    ok: 201,
    run: (role) =>
      sharedAs(role, {
        method: 'POST',
        url: '/forms',
        body: {
          title: `By the ${role}`,
          environment: 'development',
          fields: [{ id: 'a', type: 'text', label: 'A' }],
        },
      }),
  },
  {
    name: 'edit a form',
    least: 'editor',
    ok: 200,
    run: async (role) =>
      sharedAs(role, {
        method: 'PUT',
        url: `/forms/${(await sharedForm()).id}`,
        body: { title: `Edited by ${role}` },
      }),
  },
  {
    name: 'publish a form',
    least: 'editor',
    ok: 200,
    run: async (role) =>
      sharedAs(role, {
        method: 'PUT',
        url: `/forms/${(await sharedForm({ status: 'draft' })).id}`,
        body: { status: 'live' },
      }),
  },
  {
    name: 'save a working copy',
    least: 'editor',
    ok: 200,
    run: async (role) =>
      sharedAs(role, {
        method: 'PUT',
        url: `/forms/${(await sharedForm()).id}/draft`,
        body: { title: 'Next' },
      }),
  },
  {
    name: 'delete a form',
    least: 'editor',
    ok: 204,
    run: async (role) => sharedAs(role, { method: 'DELETE', url: `/forms/${(await sharedForm()).id}` }),
  },
  {
    name: 'delete a response',
    least: 'editor',
    ok: 204,
    run: async (role) =>
      sharedAs(role, { method: 'DELETE', url: `/responses/${await submission((await sharedForm()).id)}` }),
  },
  {
    name: 'add a webhook',
    least: 'editor',
    ok: 201,
    run: async (role) =>
      sharedAs(role, {
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
    least: 'admin',
    ok: 201,
    run: (role) => sharedAs(role, { method: 'POST', url: '/keys/secrets?environment=development' }),
  },
  {
    name: 'list keys',
    least: 'admin',
    ok: 200,
    run: (role) => sharedAs(role, { method: 'GET', url: '/keys?environment=development' }),
  },
  {
    name: 'create an environment',
    least: 'admin',
    ok: 201,
    run: (role) =>
      sharedAs(role, { method: 'POST', url: '/environments', body: { name: `env-${role}-${Date.now()}` } }),
  },
  {
    name: "change a member's role",
    least: 'admin',
    ok: 200,
    run: async (role) => {
      const someone = await signup(t);
      await addMember(shared, someone, 'viewer');
      return sharedAs(role, {
        method: 'PATCH',
        url: `/workspaces/${shared}/members/${someone.id}`,
        body: { role: 'editor' },
      });
    },
  },
  {
    name: 'remove a member',
    least: 'admin',
    ok: 204,
    run: async (role) => {
      const someone = await signup(t);
      await addMember(shared, someone, 'viewer');
      return sharedAs(role, { method: 'DELETE', url: `/workspaces/${shared}/members/${someone.id}` });
    },
  },
  {
    name: 'invite someone',
    least: 'admin',
    ok: 201,
    run: (role) =>
      sharedAs(role, {
        method: 'POST',
        url: `/workspaces/${shared}/invitations`,
        body: { email: `invitee-${role}-${Date.now()}@example.com`, role: 'editor' },
      }),
  },
  {
    name: 'list pending invitations',
    least: 'admin',
    ok: 200,
    run: (role) => sharedAs(role, { method: 'GET', url: `/workspaces/${shared}/invitations` }),
  },
  {
    name: 'revoke an invitation',
    least: 'admin',
    ok: 204,
    run: async (role) => {
      const sent = await sharedAs('owner', {
        method: 'POST',
        url: `/workspaces/${shared}/invitations`,
        body: { email: `revoked-${role}-${Date.now()}@example.com`, role: 'viewer' },
      });
      return sharedAs(role, { method: 'DELETE', url: `/workspaces/${shared}/invitations/${sent.body.id}` });
    },
  },
  {
    name: 'read the audit log',
    least: 'admin',
    ok: 200,
    run: (role) => sharedAs(role, { method: 'GET', url: `/workspaces/${shared}/audit` }),
  },
  {
    name: 'invite an owner',
    least: 'owner',
    ok: 201,
    run: (role) =>
      sharedAs(role, {
        method: 'POST',
        url: `/workspaces/${shared}/invitations`,
        body: { email: `owner-${role}-${Date.now()}@example.com`, role: 'owner' },
      }),
  },
  {
    name: 'rename the workspace',
    least: 'owner',
    ok: 200,
    run: (role) => sharedAs(role, { method: 'PATCH', url: `/workspaces/${shared}`, body: { name: 'Acme' } }),
  },
  {
    name: 'make an owner',
    least: 'owner',
    ok: 200,
    run: async (role) => {
      const someone = await signup(t);
      await addMember(shared, someone, 'viewer');
      return sharedAs(role, {
        method: 'PATCH',
        url: `/workspaces/${shared}/members/${someone.id}`,
        body: { role: 'owner' },
      });
    },
  },
  {
    name: 'delete the workspace',
    least: 'owner',
    ok: 204,
    run: async (role) => {
      const doomed = await newWorkspace(owner, 'Doomed');
      for (const other of ['admin', 'editor', 'viewer'] as const)
        await addMember(doomed, members[other], other);
      return inWorkspace(doomed, members[role], { method: 'DELETE', url: `/workspaces/${doomed}` });
    },
  },
];

describe('the role table, cell by cell', () => {
  const rows = CELLS.flatMap((cell) => ROLES.map((role) => ({ cell, role })));
  it.each(rows.map((row) => [`${row.role}: ${row.cell.name}`, row] as const))(
    '%s',
    async (_, { cell, role }) => {
      const allowed = ROLES.indexOf(role) <= ROLES.indexOf(cell.least);
      const response = await cell.run(role);
      if (allowed) expect(response.status, response.text).toBe(cell.ok);
      else expectProblem(response, 403, 'forbidden');
    },
  );
});

describe('another workspace', () => {
  it("a shared workspace's form named while acting in another is refused like a stranger's form", async () => {
    const form = await sharedForm({ status: 'draft' });
    // the editor is a member, but acts in their personal workspace: the same 403 as a stranger
    const personal = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: members.editor.token,
      body: { title: 'x' },
    });
    const foreign = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: stranger.token,
      body: { title: 'x' },
    });
    expectProblem(personal, 403, 'not_owner');
    expectProblem(foreign, 403, 'not_owner');
    const read = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: members.editor.token });
    expectProblem(read, 403, 'not_owner');
  });

  it("another user's personal form, response and webhook named in the shared workspace: 403 as before", async () => {
    const theirs = await createForm(t, stranger.token, { status: 'live' });
    const id = await t.request({
      method: 'POST',
      url: `/forms/${theirs.id}/submit`,
      body: { answers: { name: 'Ada', email: 'ada@example.com' } },
    });
    expect(id.status, id.text).toBe(201);
    for (const role of ROLES) {
      expectProblem(await sharedAs(role, { method: 'DELETE', url: `/forms/${theirs.id}` }), 403, 'not_owner');
      expectProblem(
        await sharedAs(role, {
          method: 'GET',
          url: `/responses/${id.body.id}?form_id=${theirs.id}&environment=development`,
        }),
        403,
        'not_owner',
      );
      expectProblem(
        await sharedAs(role, {
          method: 'GET',
          url: `/responses?form_id=${theirs.id}&environment=development`,
        }),
        403,
        'not_owner',
      );
    }
  });

  it('ids of another workspace in the workspaces routes: 403 for a stranger, 404 for a malformed id', async () => {
    expectProblem(
      await t.request({ method: 'GET', url: `/workspaces/${shared}/members`, auth: stranger.token }),
      403,
      'forbidden',
    );
    expectProblem(
      await t.request({
        method: 'PATCH',
        url: `/workspaces/${shared}`,
        auth: stranger.token,
        body: { name: 'Mine' },
      }),
      403,
      'forbidden',
    );
    expectProblem(
      await t.request({ method: 'GET', url: '/workspaces/wsp_x/members', auth: owner.token }),
      404,
      'not_found',
    );
  });
});

describe('members', () => {
  it('a removed member is refused on their next request', async () => {
    const member = await signup(t);
    await addMember(shared, member, 'editor');
    const before = await inWorkspace(shared, member, {
      method: 'GET',
      url: '/forms?environment=development',
    });
    expect(before.status).toBe(200);
    const removed = await sharedAs('admin', {
      method: 'DELETE',
      url: `/workspaces/${shared}/members/${member.id}`,
    });
    expect(removed.status, removed.text).toBe(204);
    const after = await inWorkspace(shared, member, { method: 'GET', url: '/forms?environment=development' });
    expectProblem(after, 403, 'forbidden');
  });

  it('a demoted member loses the right on their next request', async () => {
    const member = await signup(t);
    await addMember(shared, member, 'editor');
    const form = await sharedForm();
    const edit = () =>
      inWorkspace(shared, member, { method: 'PUT', url: `/forms/${form.id}`, body: { title: 'Edited' } });
    expect((await edit()).status).toBe(200);
    const demoted = await sharedAs('admin', {
      method: 'PATCH',
      url: `/workspaces/${shared}/members/${member.id}`,
      body: { role: 'viewer' },
    });
    expect(demoted.body).toMatchObject({ userId: member.id, email: member.email, role: 'viewer' });
    expectProblem(await edit(), 403, 'forbidden');
  });

  it('anyone may leave; the last owner is kept (409 last_owner)', async () => {
    const team = await newWorkspace(owner, 'Leavers');
    const viewer = await signup(t);
    await addMember(team, viewer, 'viewer');
    const left = await inWorkspace(team, viewer, {
      method: 'DELETE',
      url: `/workspaces/${team}/members/${viewer.id}`,
    });
    expect(left.status, left.text).toBe(204);
    expectProblem(
      await inWorkspace(team, owner, { method: 'DELETE', url: `/workspaces/${team}/members/${owner.id}` }),
      409,
      'last_owner',
    );
    expectProblem(
      await inWorkspace(team, owner, {
        method: 'PATCH',
        url: `/workspaces/${team}/members/${owner.id}`,
        body: { role: 'admin' },
      }),
      409,
      'last_owner',
    );
    // with a second owner, the first may step down
    const second = await signup(t);
    await addMember(team, second, 'owner');
    const stepped = await inWorkspace(team, owner, {
      method: 'PATCH',
      url: `/workspaces/${team}/members/${owner.id}`,
      body: { role: 'admin' },
    });
    expect(stepped.status, stepped.text).toBe(200);
    expectProblem(
      await inWorkspace(team, second, { method: 'DELETE', url: `/workspaces/${team}/members/${second.id}` }),
      409,
      'last_owner',
    );
  });

  it('an admin cannot remove or demote an owner; an unknown member is 404', async () => {
    expectProblem(
      await sharedAs('admin', { method: 'DELETE', url: `/workspaces/${shared}/members/${owner.id}` }),
      403,
      'forbidden',
    );
    expectProblem(
      await sharedAs('admin', {
        method: 'PATCH',
        url: `/workspaces/${shared}/members/${owner.id}`,
        body: { role: 'viewer' },
      }),
      403,
      'forbidden',
    );
    expectProblem(
      await sharedAs('admin', { method: 'DELETE', url: `/workspaces/${shared}/members/usr_nobody` }),
      404,
      'not_found',
    );
    const members = await sharedAs('viewer', { method: 'GET', url: `/workspaces/${shared}/members` });
    expect(members.body.data[0]).toEqual({
      userId: owner.id,
      email: owner.email,
      role: 'owner',
      joinedAt: expect.any(String),
    });
  });
});

describe('deleting a workspace', () => {
  it('a personal workspace is never deleted (409)', async () => {
    const user = await signup(t);
    const response = await t.request({
      method: 'DELETE',
      url: `/workspaces/${user.workspaceId}`,
      auth: user.token,
    });
    expectProblem(response, 409, 'conflict');
  });

  it('409 while it holds forms or keys; 204 once empty, and its members lose it', async () => {
    const team = await newWorkspace(owner, 'Short-lived');
    const made = await inWorkspace(team, owner, {
      method: 'POST',
      url: '/forms',
      body: { title: 'Kept', environment: 'development', fields: [{ id: 'a', type: 'text', label: 'A' }] },
    });
    expect(made.status, made.text).toBe(201);
    const refused = await t.request({ method: 'DELETE', url: `/workspaces/${team}`, auth: owner.token });
    expectProblem(refused, 409, 'conflict');
    expect(refused.body).toMatchObject({ forms: 1, keys: 0 });
    await inWorkspace(team, owner, { method: 'DELETE', url: `/forms/${made.body.id}` });
    const deleted = await t.request({ method: 'DELETE', url: `/workspaces/${team}`, auth: owner.token });
    expect(deleted.status, deleted.text).toBe(204);
    expectProblem(await inWorkspace(team, owner, { method: 'GET', url: '/environments' }), 403, 'forbidden');
  });
});

describe('the monthly quota', () => {
  it('counts per workspace and environment', async () => {
    const form = await sharedForm();
    await submission(form.id);
    const rows = await t.app.intake.database.db
      .selectFrom('usage')
      .select(['workspace_id', 'environment'])
      .where('workspace_id', '=', shared)
      .execute();
    expect(rows).toEqual([{ workspace_id: shared, environment: 'development' }]);
  });
});
