import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, workspaceOfForm } from '../../../test/support/factories.js';
import { eventually } from '../../../test/support/poll.js';
import { newId } from '../../platform/ids.js';
import { runRetention } from './retention.js';

/** The retention job: submissions past their form's retention.days, old idempotency keys and outbox rows. */

const DAY = 86_400_000;
let t: TestApp;

beforeAll(async () => {
  // the job also runs on its own, every 200 ms: assertions are about what is left, whoever deleted it
  t = await createTestApp({}, { retentionIntervalMs: 200 });
});

afterAll(async () => {
  await t?.close();
});

const db = () => t.app.intake.database.db;
const ago = (days: number, now = Date.now()) => new Date(now - days * DAY).toISOString();

async function insertSubmissions(form: any, ages: number[], now = Date.now()): Promise<string[]> {
  const workspaceId = await workspaceOfForm(t, form.id);
  const rows = ages.map((days) => ({
    id: newId('sub'),
    workspace_id: workspaceId,
    environment: form.environment,
    form_id: form.id,
    form_version: form.version,
    answers: '{}',
    session_id: null,
    status: 'accepted' as const,
    read: 0,
    starred: 0,
    created_at: ago(days, now),
  }));
  await db().insertInto('submissions').values(rows).execute();
  return rows.map((row) => row.id);
}

async function remaining(formId: string): Promise<string[]> {
  const rows = await db()
    .selectFrom('submissions')
    .select('id')
    .where('form_id', '=', formId)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id).sort();
}

describe('retention', () => {
  it("deletes submissions older than the form's retention.days and keeps the recent ones", async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', retention: { days: 30 } });
    const now = Date.now();
    const old = await insertSubmissions(form, [31, 45, 400], now);
    const recent = await insertSubmissions(form, [0, 1, 29.9], now);

    await runRetention(t.app.intake.database, new Date(now));
    expect(await remaining(form.id)).toEqual([...recent].sort());
    expect(old.some((id) => recent.includes(id))).toBe(false);
  });

  it('leaves forms without retention, and forms with a longer one, untouched', async () => {
    const user = await signup(t);
    const other = await signup(t);
    const short = await createForm(t, user.token, { status: 'live', retention: { days: 7 } });
    const none = await createForm(t, user.token, { status: 'live' });
    const long = await createForm(t, other.token, { status: 'live', retention: { days: 365 } });
    const now = Date.now();
    const shortRecent = await insertSubmissions(short, [1], now);
    await insertSubmissions(short, [8, 100], now);
    const noneRows = await insertSubmissions(none, [8, 100, 5000], now);
    const longRows = await insertSubmissions(long, [8, 100, 364], now);
    await insertSubmissions(long, [366], now);

    await runRetention(t.app.intake.database, new Date(now));
    expect(await remaining(short.id)).toEqual(shortRecent);
    expect(await remaining(none.id)).toEqual([...noneRows].sort());
    expect(await remaining(long.id)).toEqual([...longRows].sort());
  });

  it('deletes in batches until none is left, with the notes of deleted submissions', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', retention: { days: 30 } });
    // Rows 2 to 24 days old, judged 40 days from now: out of reach of the periodic job (which runs at
    // the real now), so this pass alone deletes them, five at a time.
    const now = Date.now();
    const old = await insertSubmissions(
      form,
      Array.from({ length: 23 }, (_, i) => 2 + i),
      now,
    );
    const [keep] = await insertSubmissions(form, [-20], now);
    const note = await t.request({
      method: 'POST',
      url: `/responses/${old[0]}/notes`,
      auth: user.token,
      body: { text: 'to be forgotten' },
    });
    expect(note.status, note.text).toBe(200);

    const counts = await runRetention(t.app.intake.database, new Date(now + 40 * DAY), { batchSize: 5 });
    // (the count spans every form: earlier tests' rows are past their retention 40 days from now too)
    expect(counts.submissions).toBeGreaterThanOrEqual(23);
    expect(await remaining(form.id)).toEqual([keep]);
    const notes = await db()
      .selectFrom('submission_notes')
      .select('id')
      .where('submission_id', 'in', old)
      .execute();
    expect(notes).toEqual([]);
  });

  it('applies a retention set later to the submissions already stored', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const now = Date.now();
    const [old] = await insertSubmissions(form, [10], now);
    await runRetention(t.app.intake.database, new Date(now));
    expect(await remaining(form.id)).toEqual([old]);

    const update = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { retention: { days: 5 } },
    });
    expect(update.status, update.text).toBe(200);
    await runRetention(t.app.intake.database, new Date(now));
    expect(await remaining(form.id)).toEqual([]);
  });

  it('deletes idempotency keys older than 24 hours and keeps younger ones', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const now = Date.now();
    const key = (name: string, hours: number) => ({
      form_id: form.id,
      key: name,
      request_hash: 'h',
      response: '{}',
      created_at: new Date(now - hours * 3600_000).toISOString(),
    });
    await db()
      .insertInto('idempotency_keys')
      .values([key('fresh', 1), key('almost', 23.9), key('expired', 24.1), key('ancient', 24 * 30)])
      .execute();

    await runRetention(t.app.intake.database, new Date(now));
    const left = await db()
      .selectFrom('idempotency_keys')
      .select('key')
      .where('form_id', '=', form.id)
      .orderBy('key')
      .execute();
    expect(left.map((row) => row.key)).toEqual(['almost', 'fresh']);
  });

  it('deletes outbox messages done or failed more than 7 days ago, never pending ones', async () => {
    const now = Date.now();
    const row = (status: 'pending' | 'done' | 'failed', doneDaysAgo: number | null) => ({
      id: newId('obx'),
      kind: 'test.retention',
      payload: '{}',
      status,
      attempts: 1,
      next_attempt_at: ago(30, now),
      lease_until: null,
      last_error: null,
      created_at: ago(30, now),
      done_at: doneDaysAgo === null ? null : ago(doneDaysAgo, now),
    });
    const rows = {
      doneOld: row('done', 8),
      failedOld: row('failed', 10),
      doneRecent: row('done', 6),
      failedRecent: row('failed', 1),
      pendingOld: row('pending', null),
    };
    await db().insertInto('outbox').values(Object.values(rows)).execute();

    await runRetention(t.app.intake.database, new Date(now));
    const left = await db()
      .selectFrom('outbox')
      .select('id')
      .where(
        'id',
        'in',
        Object.values(rows).map((r) => r.id),
      )
      .execute();
    expect(left.map((r) => r.id).sort()).toEqual(
      [rows.doneRecent.id, rows.failedRecent.id, rows.pendingOld.id].sort(),
    );
  });

  it('deletes webhook deliveries finished more than 7 days ago, with their attempts, never pending ones', async () => {
    const now = Date.now();
    const row = (status: 'pending' | 'succeeded' | 'failed', updatedDaysAgo: number) => ({
      id: newId('dlv'),
      webhook_id: newId('whk'),
      workspace_id: 'wsp_retention',
      environment: 'development',
      form_id: newId('frm'),
      event_id: newId('evt'),
      event: 'response.created',
      url: 'https://example.com/hook',
      format: 'legacy',
      secret_ciphertext: null,
      body_ciphertext: 'enc:v1:test',
      status,
      attempts: 1,
      outbox_id: newId('obx'),
      redelivery_of: null,
      created_at: ago(30, now),
      updated_at: ago(updatedDaysAgo, now),
    });
    const rows = {
      succeededOld: row('succeeded', 8),
      failedOld: row('failed', 9),
      succeededRecent: row('succeeded', 6),
      pendingOld: row('pending', 20),
    };
    await db().insertInto('webhook_deliveries').values(Object.values(rows)).execute();
    await db()
      .insertInto('webhook_delivery_attempts')
      .values(
        Object.values(rows).map((delivery) => ({
          delivery_id: delivery.id,
          attempt: 1,
          status_code: 500,
          error: null,
          duration_ms: 3,
          attempted_at: delivery.updated_at,
        })),
      )
      .execute();

    await runRetention(t.app.intake.database, new Date(now));
    const ids = Object.values(rows).map((r) => r.id);
    const left = await db().selectFrom('webhook_deliveries').select('id').where('id', 'in', ids).execute();
    const expected = [rows.succeededRecent.id, rows.pendingOld.id].sort();
    expect(left.map((r) => r.id).sort()).toEqual(expected);
    const attempts = await db()
      .selectFrom('webhook_delivery_attempts')
      .select('delivery_id')
      .where('delivery_id', 'in', ids)
      .execute();
    expect(attempts.map((r) => r.delivery_id).sort()).toEqual(expected);
  });

  it('runs on its own, started with the app', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', retention: { days: 2 } });
    await insertSubmissions(form, [3, 4]);
    const [recent] = await insertSubmissions(form, [0]);
    await eventually(async () => expect(await remaining(form.id)).toEqual([recent]), { intervalMs: 50 });
  });
});
