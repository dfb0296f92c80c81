import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type RequestOptions, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { createKey, signup, type TestUser } from '../../../test/support/factories.js';
import { eventually } from '../../../test/support/poll.js';
import { recordAudit } from '../../platform/audit.js';
import type { Role } from '../../platform/roles.js';
import { addDays, nowIso } from '../../platform/time.js';
import { runRetention } from '../submissions/retention.js';
import { insertMember } from './repo.js';

/**
 * The audit log (API.md §14, issue 21 item 5): written in the transaction of each change, with
 * the actor (user or key), action, target and client address; read newest first by admins and
 * owners, filtered and paged; kept AUDIT_RETENTION_DAYS.
 */

interface Entry {
  id: string;
  at: string;
  actor: { type: 'user' | 'key'; id: string; email?: string };
  action: string;
  target: { type: string; id: string };
  ip: string;
}

let t: TestApp;
let owner: TestUser;
const members = {} as Record<Exclude<Role, 'owner'>, TestUser>;
let workspace: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signup(t);
  workspace = (
    await t.request({ method: 'POST', url: '/workspaces', auth: owner.token, body: { name: 'Acme' } })
  ).body.id;
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    members[role] = await signup(t);
    await insertMember(t.app.intake.database.db, {
      workspaceId: workspace,
      userId: members[role].id,
      role,
      joinedAt: nowIso(),
    });
  }
});
afterAll(() => t?.close());

/** A request acting in the shared workspace. */
const as = (user: TestUser | string, options: Omit<RequestOptions, 'auth'>) =>
  t.request({
    ...options,
    auth: typeof user === 'string' ? user : user.token,
    headers: { 'x-intake-workspace': workspace, ...options.headers },
  });

async function audit(query = '', by: TestUser = owner, id = workspace) {
  const response = await t.request({ method: 'GET', url: `/workspaces/${id}/audit${query}`, auth: by.token });
  expect(response.status, response.text).toBe(200);
  return response.body as { data: Entry[]; nextCursor: string | null };
}

async function latest(): Promise<Entry | undefined> {
  return (await audit('?limit=1')).data[0];
}

async function createForm(by: TestUser | string, overrides: Record<string, unknown> = {}) {
  const response = await as(by, {
    method: 'POST',
    url: '/forms',
    body: {
      title: 'Audited',
      environment: 'development',
      status: 'draft',
      fields: [{ id: 'name', type: 'text', label: 'Name' }],
      ...overrides,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; version: number };
}

describe('the audit log (API.md §14)', () => {
  it('records a change with its actor, action, target and client address', async () => {
    const form = await createForm(members.editor);
    expect(await latest()).toEqual({
      id: expect.stringMatching(/^aud_/),
      at: expect.any(String),
      actor: { type: 'user', id: members.editor.id, email: members.editor.email },
      action: 'form.created',
      target: { type: 'form', id: form.id },
      ip: '127.0.0.1',
    });
  });

  it('names a key as the actor, without an address', async () => {
    const key = await as(owner, { method: 'POST', url: '/keys/secrets?environment=development' });
    const form = await createForm(key.body.key);
    expect(await latest()).toMatchObject({
      actor: { type: 'key', id: key.body.id },
      action: 'form.created',
      target: { type: 'form', id: form.id },
    });
    expect((await latest())?.actor).not.toHaveProperty('email');
  });

  it('records every kind of change', async () => {
    const before = (await latest())?.at ?? '';
    const form = await createForm(owner);
    await as(owner, {
      method: 'PUT',
      url: `/forms/${form.id}`,
      body: { title: 'Renamed' },
    });
    await as(owner, { method: 'PUT', url: `/forms/${form.id}`, body: { status: 'live' } });
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { name: 'Ada' } },
    });
    expect(submitted.status, submitted.text).toBe(201);
    await as(members.viewer, {
      method: 'POST',
      url: `/responses/${submitted.body.id}/notes`,
      body: { text: 'hi' },
    });
    const triage = async (path: 'star' | 'read', body: Record<string, boolean>) => {
      const response = await as(members.viewer, {
        method: 'POST',
        url: `/responses/${submitted.body.id}/${path}`,
        body,
      });
      expect(response.status, response.text).toBe(200);
    };
    await triage('star', { starred: true });
    await triage('star', { starred: false });
    await triage('read', { read: true });
    // marking read what is read already changes nothing, and records nothing
    await triage('read', { read: true });
    await triage('read', { read: false });
    await as(members.editor, { method: 'DELETE', url: `/responses/${submitted.body.id}` });
    const hook = await as(owner, {
      method: 'POST',
      url: '/webhooks',
      body: { formId: form.id, event: 'response.created', url: 'http://127.0.0.1:9/hook' },
    });
    expect(hook.status, hook.text).toBe(201);
    await as(owner, { method: 'PATCH', url: `/webhooks/${hook.body.id}`, body: { enabled: false } });
    await as(owner, { method: 'DELETE', url: `/webhooks/${hook.body.id}` });
    await as(owner, { method: 'DELETE', url: `/forms/${form.id}` });
    await as(members.admin, { method: 'POST', url: '/environments', body: { name: 'staging' } });
    await as(members.admin, { method: 'DELETE', url: '/environments/staging' });
    const key = await as(members.admin, { method: 'POST', url: '/keys/publishable?environment=development' });
    await as(members.admin, { method: 'DELETE', url: `/keys/publishable/${key.body.id}` });
    const leaver = await signup(t);
    const removed = await signup(t);
    for (const user of [leaver, removed]) {
      await insertMember(t.app.intake.database.db, {
        workspaceId: workspace,
        userId: user.id,
        role: 'viewer',
        joinedAt: nowIso(),
      });
    }
    await t.request({
      method: 'PATCH',
      url: `/workspaces/${workspace}/members/${removed.id}`,
      auth: owner.token,
      body: { role: 'editor' },
    });
    await t.request({
      method: 'DELETE',
      url: `/workspaces/${workspace}/members/${removed.id}`,
      auth: owner.token,
    });
    await t.request({
      method: 'DELETE',
      url: `/workspaces/${workspace}/members/${leaver.id}`,
      auth: leaver.token,
    });
    const invitation = await t.request({
      method: 'POST',
      url: `/workspaces/${workspace}/invitations`,
      auth: owner.token,
      body: { email: leaver.email, role: 'viewer' },
    });
    expect(invitation.status, invitation.text).toBe(201);
    await t.request({
      method: 'DELETE',
      url: `/workspaces/${workspace}/invitations/${invitation.body.id}`,
      auth: owner.token,
    });
    await t.request({
      method: 'PATCH',
      url: `/workspaces/${workspace}`,
      auth: owner.token,
      body: { name: 'Acme 2' },
    });

    const actions = (await audit(`?from=${encodeURIComponent(before)}&limit=100`)).data
      .filter((entry) => entry.at >= before)
      .map((entry) => entry.action)
      .reverse();
    expect(actions).toEqual(
      expect.arrayContaining([
        'form.created',
        'form.updated',
        'form.published',
        'response.note_added',
        'response.starred',
        'response.unstarred',
        'response.read',
        'response.unread',
        'response.deleted',
        'webhook.created',
        'webhook.updated',
        'webhook.deleted',
        'form.deleted',
        'environment.created',
        'environment.deleted',
        'key.created',
        'key.deleted',
        'member.role_changed',
        'member.removed',
        'member.left',
        'invitation.created',
        'invitation.revoked',
        'workspace.renamed',
      ]),
    );
    // only a change is recorded: the second "read" changed nothing; respondents' submissions are
    // not members' changes (no entry for the submit)
    expect(actions.filter((action) => action.startsWith('response.'))).toEqual([
      'response.note_added',
      'response.starred',
      'response.unstarred',
      'response.read',
      'response.unread',
      'response.deleted',
    ]);
  });

  it("records a working copy's publication and discarding, and a workspace's deletion", async () => {
    const form = await createForm(owner, { status: 'live' });
    const draft = (title: string) =>
      as(owner, { method: 'PUT', url: `/forms/${form.id}/draft`, body: { title } });
    expect((await draft('Next')).status).toBe(200);
    expect((await as(owner, { method: 'POST', url: `/forms/${form.id}/draft/publish` })).status).toBe(200);
    expect(await latest()).toMatchObject({
      action: 'form.working_copy_published',
      target: { type: 'form', id: form.id },
    });
    expect((await draft('Later')).status).toBe(200);
    expect((await as(owner, { method: 'DELETE', url: `/forms/${form.id}/draft` })).status).toBe(204);
    expect((await latest())?.action).toBe('form.working_copy_discarded');

    const user = await signup(t);
    const doomed = (
      await t.request({ method: 'POST', url: '/workspaces', auth: user.token, body: { name: 'D' } })
    ).body.id;
    const deleted = await t.request({ method: 'DELETE', url: `/workspaces/${doomed}`, auth: user.token });
    expect(deleted.status, deleted.text).toBe(204);
    // kept (no one reads it through the API any more) until the retention job removes it
    const rows = await t.app.intake.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('workspace_id', '=', doomed)
      .orderBy('at')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { action: 'workspace.created', actor_id: user.id },
      { action: 'workspace.deleted', actor_id: user.id },
    ]);
  });

  it('records nothing for a refused change', async () => {
    const form = await createForm(owner);
    const before = await latest();
    expectProblem(
      await as(members.viewer, { method: 'PUT', url: `/forms/${form.id}`, body: { title: 'No' } }),
      403,
      'forbidden',
    );
    expectProblem(
      await t.request({
        method: 'PATCH',
        url: `/workspaces/${workspace}`,
        auth: members.admin.token,
        body: { name: 'No' },
      }),
      403,
      'forbidden',
    );
    // a change refused inside its transaction: the last owner kept
    expectProblem(
      await t.request({
        method: 'PATCH',
        url: `/workspaces/${workspace}/members/${owner.id}`,
        auth: owner.token,
        body: { role: 'admin' },
      }),
      409,
      'last_owner',
    );
    expectProblem(
      await as(members.admin, { method: 'DELETE', url: '/environments/development' }),
      409,
      'conflict',
    );
    expect(await latest()).toEqual(before);
  });

  it('an entry that cannot be written rolls its change back', async () => {
    const { db } = t.app.intake.database;
    await sql`ALTER TABLE audit_log RENAME TO audit_log_away`.execute(db);
    let response: Awaited<ReturnType<typeof t.request>>;
    try {
      response = await t.request({
        method: 'PATCH',
        url: `/workspaces/${workspace}`,
        auth: owner.token,
        body: { name: 'Never' },
      });
    } finally {
      await sql`ALTER TABLE audit_log_away RENAME TO audit_log`.execute(db);
    }
    expect(response.status).toBe(500);
    const list = await t.request({ method: 'GET', url: '/workspaces', auth: owner.token });
    expect(list.body.data.find((row: { id: string }) => row.id === workspace).name).not.toBe('Never');
  });

  it('filters by actor, action (or kind of target) and time, and pages newest first', async () => {
    const start = nowIso();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createForm(members.admin, { title: `Page ${i}` })).id);
    await as(members.editor, { method: 'DELETE', url: `/forms/${made[0]}` });

    const byAdmin = await audit(`?actor=${members.admin.id}&from=${encodeURIComponent(start)}`);
    expect(byAdmin.data.map((entry) => entry.target.id)).toEqual([...made].reverse());
    expect((await audit(`?action=form.deleted&from=${encodeURIComponent(start)}`)).data).toHaveLength(1);
    expect((await audit(`?action=form&from=${encodeURIComponent(start)}`)).data).toHaveLength(6);
    expect((await audit('?action=workspace')).data.every((entry) => entry.target.type === 'workspace')).toBe(
      true,
    );
    expect(
      (await audit(`?to=${encodeURIComponent(start)}&action=form`)).data.every((e) => e.at <= start),
    ).toBe(true);

    const seen: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page = await audit(
        `?from=${encodeURIComponent(start)}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(6);
    expect(new Set(seen.map((entry) => entry.id)).size).toBe(6);
    const order = seen.map((entry) => [entry.at, entry.id].join(' '));
    expect(order).toEqual([...order].sort().reverse());
  });

  it('refuses bad filters with 400 invalid_parameter', async () => {
    for (const query of [
      '?cursor=nope',
      '?from=yesterday',
      '?to=2026-02-30',
      '?action=DROP%20TABLE',
      '?limit=0',
    ]) {
      const response = await t.request({
        method: 'GET',
        url: `/workspaces/${workspace}/audit${query}`,
        auth: owner.token,
      });
      expect(response.status, `${query}: ${response.text}`).toBe(400);
    }
  });

  it('is for admins and owners of the workspace: others 403, keys 403, a malformed id 404', async () => {
    expect((await audit('', members.admin)).data.length).toBeGreaterThan(0);
    for (const user of [members.editor, members.viewer, await signup(t)]) {
      const response = await t.request({
        method: 'GET',
        url: `/workspaces/${workspace}/audit`,
        auth: user.token,
      });
      expectProblem(response, 403, 'forbidden');
    }
    const key = await createKey(t, owner, 'secret');
    expectProblem(
      await t.request({ method: 'GET', url: `/workspaces/${owner.workspaceId}/audit`, auth: key.key }),
      403,
      'forbidden',
    );
    expectProblem(
      await t.request({ method: 'GET', url: '/workspaces/nope/audit', auth: owner.token }),
      404,
      'not_found',
    );
  });

  it("a workspace's log holds only its own changes; another workspace's is 403", async () => {
    const other = await signup(t);
    const theirs = (
      await t.request({ method: 'POST', url: '/workspaces', auth: other.token, body: { name: 'B' } })
    ).body.id;
    const response = await t.request({
      method: 'GET',
      url: `/workspaces/${theirs}/audit`,
      auth: owner.token,
    });
    expectProblem(response, 403, 'forbidden');
    const own = await audit('?limit=100');
    expect(own.data.some((entry) => entry.target.id === theirs)).toBe(false);
    const theirLog = await audit('', other, theirs);
    expect(theirLog.data.map((entry) => entry.action)).toEqual(['workspace.created']);
  });

  it('keeps entries AUDIT_RETENTION_DAYS: the retention job deletes older ones', async () => {
    const { database } = t.app.intake;
    const old = await signup(t);
    const oldWorkspace = (
      await t.request({ method: 'POST', url: '/workspaces', auth: old.token, body: { name: 'O' } })
    ).body.id;
    await database.transaction((trx) =>
      recordAudit(trx, {
        workspaceId: oldWorkspace,
        actor: { type: 'user', id: old.id, ip: '127.0.0.1' },
        action: 'workspace.renamed',
        target: { type: 'workspace', id: oldWorkspace },
      }),
    );
    const inAYear = new Date(Date.parse(addDays(nowIso(), 366)));
    const kept = await runRetention(database, inAYear, { auditRetentionDays: 400 });
    expect(kept.auditEntries).toBe(0);
    expect((await audit('', old, oldWorkspace)).data).toHaveLength(2);
    const counts = await runRetention(database, inAYear, { auditRetentionDays: 365 });
    expect(counts.auditEntries).toBeGreaterThanOrEqual(2);
    expect((await audit('', old, oldWorkspace)).data).toEqual([]);
  });

  it('the periodic job deletes by AUDIT_RETENTION_DAYS', async () => {
    expect(t.config.auditRetentionDays).toBe(365);
    const short = await createTestApp({ auditRetentionDays: 1 }, { retentionIntervalMs: 100 });
    try {
      const { db } = short.app.intake.database;
      const row = (id: string, at: string) => ({
        id,
        workspace_id: 'wsp_x',
        at,
        actor_type: 'user' as const,
        actor_id: 'usr_x',
        actor_email: null,
        action: 'workspace.renamed',
        target_type: 'workspace',
        target_id: 'wsp_x',
        ip: '127.0.0.1',
      });
      await db
        .insertInto('audit_log')
        .values([row('aud_old', addDays(nowIso(), -2)), row('aud_new', nowIso())])
        .execute();
      await eventually(async () => {
        const ids = (await db.selectFrom('audit_log').select('id').execute()).map((r) => r.id);
        expect(ids).toEqual(['aud_new']);
      });
    } finally {
      await short.close();
    }
  });
});
