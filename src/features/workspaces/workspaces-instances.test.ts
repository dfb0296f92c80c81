import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestOptions, startInstancesOnOneDatabase, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { signup, type TestUser } from '../../../test/support/factories.js';
import { nowIso } from '../../platform/time.js';
import { insertMember } from './repo.js';

/**
 * API.md §14: a role change or a removal holds from the member's next request, on every
 * instance: nothing an instance keeps of a membership can outlive it. Two instances on one
 * PostgreSQL database (SQLite serves one process).
 */
describe.runIf(process.env.DATABASE_URL)('a membership changed on one instance, on another', () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const started = await startInstancesOnOneDatabase(2);
    [a, b] = started.instances as [TestApp, TestApp];
    close = started.close;
  });
  afterAll(() => close?.());

  it('a demoted member is refused on the other instance at once; a removed one too', async () => {
    const owner: TestUser = await signup(a);
    const member: TestUser = await signup(a);
    const created = await a.request({
      method: 'POST',
      url: '/workspaces',
      auth: owner.token,
      body: { name: 'Two' },
    });
    const workspace: string = created.body.id;
    await insertMember(a.app.intake.database.db, {
      workspaceId: workspace,
      userId: member.id,
      role: 'editor',
      joinedAt: nowIso(),
    });
    const form = await a.request({
      method: 'POST',
      url: '/forms',
      auth: owner.token,
      headers: { 'x-intake-workspace': workspace },
      body: { title: 'Shared', environment: 'development', fields: [{ id: 'a', type: 'text', label: 'A' }] },
    });
    expect(form.status, form.text).toBe(201);
    const asMember = (t: TestApp, options: Omit<RequestOptions, 'auth'>) =>
      t.request({ ...options, auth: member.token, headers: { 'x-intake-workspace': workspace } });
    const edit = (t: TestApp) =>
      asMember(t, { method: 'PUT', url: `/forms/${form.body.id}`, body: { title: 'Edited' } });

    // both instances have served the member as an editor
    expect((await edit(a)).status).toBe(200);
    expect((await edit(b)).status).toBe(200);

    const demoted = await a.request({
      method: 'PATCH',
      url: `/workspaces/${workspace}/members/${member.id}`,
      auth: owner.token,
      body: { role: 'viewer' },
    });
    expect(demoted.status, demoted.text).toBe(200);
    expectProblem(await edit(b), 403, 'forbidden');
    expect((await asMember(b, { method: 'GET', url: `/forms/${form.body.id}` })).status).toBe(200);

    const removed = await a.request({
      method: 'DELETE',
      url: `/workspaces/${workspace}/members/${member.id}`,
      auth: owner.token,
    });
    expect(removed.status, removed.text).toBe(204);
    expectProblem(await asMember(b, { method: 'GET', url: `/forms/${form.body.id}` }), 403, 'forbidden');
  });
});
