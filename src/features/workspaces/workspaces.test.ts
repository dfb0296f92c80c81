import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { type SharedWorkspace, startSharedWorkspace } from '../../../test/support/shared-workspace.js';
import { ROLES, type Role } from '../../platform/roles.js';

/**
 * API.md §14: workspaces, members, the workspace a request acts in, another workspace's ids,
 * deleting one, the quota per workspace. The role table, cell by cell, is role-table.test.ts.
 */

let world: SharedWorkspace;
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let members: Record<Role, TestUser>;
let shared: string;

beforeAll(async () => {
  world = await startSharedWorkspace();
  ({ t, owner, stranger, members, shared } = world);
});
afterAll(() => world?.close());

const addMember: SharedWorkspace['addMember'] = (...args) => world.addMember(...args);
const inWorkspace: SharedWorkspace['inWorkspace'] = (...args) => world.inWorkspace(...args);
const sharedAs: SharedWorkspace['sharedAs'] = (...args) => world.sharedAs(...args);
const newWorkspace: SharedWorkspace['newWorkspace'] = (...args) => world.newWorkspace(...args);
const sharedForm: SharedWorkspace['sharedForm'] = (...args) => world.sharedForm(...args);
const submission: SharedWorkspace['submission'] = (...args) => world.submission(...args);

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
    // named but empty is no workspace either, in the header as in the query: never the personal one
    for (const named of [
      { url: '/environments?workspace=' },
      { url: '/environments', headers: { 'x-intake-workspace': '' } },
      { url: '/environments', headers: { 'x-intake-workspace': '  ' } },
    ]) {
      expectProblem(await t.request({ method: 'GET', ...named, auth: owner.token }), 404, 'not_found');
    }
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
