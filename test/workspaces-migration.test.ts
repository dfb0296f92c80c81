import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { dropSchema } from '../src/platform/db/database.js';
import { inject, type RequestOptions, type TestApp, testConfig } from './support/app.js';
import { copyDataDir, type PreTeamsManifest, readManifest, restorePostgres } from './support/pre-teams.js';

/**
 * Migration 012 (API.md §14) on a database made by the release before it, through that release's
 * own API (`test/fixtures/make-pre-teams.ts`, README there): every row lands in its owner's
 * personal workspace, and the API serves it all as before: forms, responses with their notes
 * and files, webhooks, keys.
 */
describe('migrating a pre-teams database to workspaces', () => {
  let t: TestApp;
  let manifest: PreTeamsManifest;
  let dataDir: string;
  let schema: string | undefined;
  const url = process.env.DATABASE_URL;

  beforeAll(async () => {
    manifest = readManifest();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-pre-teams-'));
    copyDataDir(dataDir);
    if (url) {
      schema = `test_${randomBytes(6).toString('hex')}`;
      await restorePostgres(url, schema);
    }
    const config = testConfig(url ? { dataDir, databaseUrl: url, databaseSchema: schema } : { dataDir });
    const app = await buildApp(config, { logger: false });
    t = { app, config, request: (options) => inject(app, options), close: () => app.close() };
  });
  afterAll(async () => {
    await t?.close();
    if (url && schema) await dropSchema(url, schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const db = () => t.app.intake.database.db;

  async function personalWorkspaceOf(userId: string): Promise<string> {
    const rows = await db()
      .selectFrom('workspace_members as m')
      .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
      .select(['w.id', 'm.role', 'w.personal', 'w.name'])
      .where('m.user_id', '=', userId)
      .execute();
    expect(rows).toEqual([
      { id: expect.stringMatching(/^wsp_/), role: 'owner', personal: 1, name: 'Personal' },
    ]);
    return rows[0]?.id ?? '';
  }

  async function logIn(email: string, password: string): Promise<string> {
    const response = await t.request({ method: 'POST', url: '/auth/login', body: { email, password } });
    expect(response.status, response.text).toBe(200);
    return response.body.token;
  }

  const as = (auth: string, options: Omit<RequestOptions, 'auth'>) => t.request({ ...options, auth });

  it('gives every user one personal workspace, of which they are the owner', async () => {
    const users = await db().selectFrom('users').select('id').execute();
    expect(users.map((row) => row.id).sort()).toEqual(manifest.users.map((user) => user.id).sort());
    for (const user of manifest.users) await personalWorkspaceOf(user.id);
    const workspaces = await db().selectFrom('workspaces').select('id').execute();
    expect(workspaces).toHaveLength(manifest.users.length);
  });

  it("moves every owned row to its owner's personal workspace", async () => {
    for (const user of manifest.users) {
      const workspace = await personalWorkspaceOf(user.id);
      const environments = await db()
        .selectFrom('environments')
        .select('name')
        .where('workspace_id', '=', workspace)
        .execute();
      expect(environments.map((row) => row.name).sort()).toEqual([...user.environments].sort());
      const forms = await db()
        .selectFrom('forms')
        .select(['id', 'user_id', 'environment'])
        .where('workspace_id', '=', workspace)
        .execute();
      // userId on a form names its creator (API.md §14)
      expect(forms.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        user.forms
          .map((form) => ({ id: form.id, user_id: user.id, environment: form.environment }))
          .sort((a, b) => a.id.localeCompare(b.id)),
      );
      const keys = await db()
        .selectFrom('api_keys')
        .select(['id', 'user_id'])
        .where('workspace_id', '=', workspace)
        .execute();
      expect(keys.map((row) => row.id).sort()).toEqual(user.keys.map((key) => key.id).sort());
      expect(new Set(keys.map((row) => row.user_id))).toEqual(new Set(user.keys.length ? [user.id] : []));
      const submissions = await db()
        .selectFrom('submissions')
        .select('id')
        .where('workspace_id', '=', workspace)
        .execute();
      expect(submissions.map((row) => row.id).sort()).toEqual(
        user.forms.flatMap((form) => form.submissions).sort(),
      );
      const webhooks = await db()
        .selectFrom('webhooks')
        .select('id')
        .where('workspace_id', '=', workspace)
        .execute();
      expect(webhooks.map((row) => row.id).sort()).toEqual(user.forms.map((form) => form.webhook).sort());
      const usage = await db()
        .selectFrom('usage')
        .select(['environment', 'submissions'])
        .where('workspace_id', '=', workspace)
        .execute();
      expect(usage.map((row) => [row.environment, Number(row.submissions)]).sort()).toEqual(
        user.forms.map((form) => [form.environment, form.submissions.length]).sort(),
      );
    }
    // and nothing anywhere is left owned by anything but a workspace of its form
    for (const table of ['submissions', 'webhooks', 'webhook_deliveries', 'form_events', 'files'] as const) {
      const stray = await sql<{ n: number | string }>`
        SELECT count(*) AS n FROM ${sql.table(table)} x JOIN forms f ON f.id = x.form_id
        WHERE x.workspace_id <> f.workspace_id`.execute(db());
      expect(Number(stray.rows[0]?.n), table).toBe(0);
      const total = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(
        db(),
      );
      expect(Number(total.rows[0]?.n), table).toBeGreaterThan(0);
    }
  });

  it('the indexes that were on user_id are on workspace_id', async () => {
    const indexes = url
      ? await sql<{ name: string; def: string }>`
          SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = ${schema ?? ''}`.execute(
          db(),
        )
      : await sql<{ name: string; def: string }>`
          SELECT name, sql AS def FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`.execute(db());
    const byName = new Map(indexes.rows.map((row) => [row.name, row.def]));
    for (const name of [
      'forms_owner_list',
      'api_keys_workspace_environment',
      'webhooks_owner',
      'submissions_owner_summary_covering',
      'form_events_environment_day',
      'files_owner',
    ]) {
      expect(byName.get(name), name).toMatch(/workspace_id/);
    }
    expect(byName.get('forms_public_list')).toMatch(/environment/);
    expect([...byName.values()].filter((def) => /\(\s*"?user_id"?\s*,\s*"?environment/.test(def))).toEqual(
      [],
    );
  });

  it('serves every user their forms, responses (notes, stars, files) and webhooks, as before', async () => {
    for (const user of manifest.users) {
      const token = await logIn(user.email, user.password);
      for (const environment of user.environments) {
        const forms = await as(token, { method: 'GET', url: `/forms?environment=${environment}` });
        expect(forms.status, forms.text).toBe(200);
        expect(forms.body.data.map((form: { id: string }) => form.id)).toEqual(
          user.forms.filter((form) => form.environment === environment).map((form) => form.id),
        );
      }
      for (const form of user.forms) {
        const scope = `form_id=${form.id}&environment=${form.environment}`;
        const responses = await as(token, { method: 'GET', url: `/responses?${scope}` });
        expect(responses.status, responses.text).toBe(200);
        expect(responses.body.data.map((row: { id: string }) => row.id).sort()).toEqual(
          [...form.submissions].sort(),
        );
        const first = await as(token, { method: 'GET', url: `/responses/${form.submissions[0]}?${scope}` });
        // a note from before migration 014 kept no author: unknown, not guessed (docs/decisions.md)
        expect(first.body).toMatchObject({
          read: true,
          starred: true,
          notes: [{ text: 'called back', author: null }],
        });
        const file = first.body.answers.doc[0];
        const download = await as(token, {
          method: 'GET',
          url: `/responses/${form.submissions[0]}/files/${file.id}`,
        });
        expect(download.status, download.text).toBe(200);
        expect(download.headers['content-length']).toBe(String(file.size));
        const webhooks = await as(token, { method: 'GET', url: `/webhooks?form_id=${form.id}` });
        expect(webhooks.body.data.map((row: { id: string }) => row.id)).toEqual([form.webhook]);
      }
      const workspaces = await as(token, { method: 'GET', url: '/workspaces' });
      expect(workspaces.body.data).toEqual([expect.objectContaining({ personal: true, role: 'owner' })]);
    }
  });

  it("starts each form's counters (migration 019) from the rows stored before them", async () => {
    let compared = 0;
    for (const user of manifest.users) {
      const token = await logIn(user.email, user.password);
      for (const environment of user.environments) {
        const formsHere = user.forms.filter((form) => form.environment === environment);
        const summary = await as(token, {
          method: 'GET',
          url: `/responses/summary?environment=${environment}`,
        });
        expect(summary.status, summary.text).toBe(200);
        const expected = [];
        for (const form of formsHere) {
          const responses = await as(token, {
            method: 'GET',
            url: `/responses?form_id=${form.id}&environment=${environment}&limit=100`,
          });
          const rows: Array<{ read: boolean; createdAt: string }> = responses.body.data;
          if (rows.length === 0) continue;
          expected.push({
            formId: form.id,
            submissions: rows.length,
            unread: rows.filter((row) => !row.read).length,
            lastSubmissionAt: rows
              .map((row) => row.createdAt)
              .sort()
              .at(-1),
          });
        }
        compared += expected.length;
        const byId = (a: { formId: string }, b: { formId: string }) => (a.formId < b.formId ? -1 : 1);
        expect([...summary.body.data].sort(byId)).toEqual(expected.sort(byId));
      }
    }
    expect(compared, 'forms with responses compared').toBeGreaterThan(0);
  });

  it('keys still authenticate, each in its own environment of its owner', async () => {
    for (const user of manifest.users) {
      for (const key of user.keys) {
        const forms = await as(key.key, { method: 'GET', url: `/forms?environment=${key.environment}` });
        expect(forms.status, forms.text).toBe(200);
        const expected = user.forms
          .filter((form) => form.environment === key.environment)
          .map((form) => form.id);
        expect(forms.body.data.map((form: { id: string }) => form.id)).toEqual(expected);
        const other = await as(key.key, { method: 'GET', url: '/forms?environment=production' });
        expect(other.status).toBe(403);
      }
      const secret = user.keys.find((key) => key.kind === 'secret' && key.environment === 'development');
      const form = user.forms.find((candidate) => candidate.environment === 'development');
      if (secret && form) {
        const responses = await as(secret.key, {
          method: 'GET',
          url: `/responses?form_id=${form.id}&environment=development`,
        });
        expect(responses.body.data).toHaveLength(form.submissions.length);
        const submitted = await as(secret.key, {
          method: 'POST',
          url: `/forms/${form.id}/submit`,
          body: { answers: { name: 'after the migration' } },
        });
        expect(submitted.status, submitted.text).toBe(201);
      }
    }
  });

  it('a user can still sign up, and gets a personal workspace', async () => {
    const email = `after-${randomBytes(4).toString('hex')}@example.com`;
    const response = await t.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email, password: 'correct horse battery' },
    });
    expect(response.status, response.text).toBe(201);
    await personalWorkspaceOf(response.body.user.id);
  });
});
