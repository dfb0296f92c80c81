import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { seededRandom } from '../../../test/support/seeded-random.js';
import { countStored, LISTED } from './counters.js';
import { runRetention } from './retention.js';

/**
 * The forms list's counters (issue 24 item 4): GET /responses/summary reads one row per form,
 * kept by every write. After random submissions (accepted, flagged, quarantined), reads and
 * unreads, stars, deletions and a retention pass, the counters equal a full count of the rows.
 */

const DAY = 86_400_000;

describe('form counters', () => {
  let t: TestApp;
  let owner: TestUser;
  const forms: Array<{ id: string }> = [];
  beforeAll(async () => {
    t = await createTestApp({ rateLimitPublic: 1_000_000 });
    owner = await signup(t);
    const rule = (action: string) => ({
      spamProtection: { rules: [{ field: 'name', op: 'equals', value: 'spam' }], action },
    });
    forms.push(
      await createForm(t, owner.token, { status: 'live', ...rule('flag') }),
      await createForm(t, owner.token, { status: 'live', ...rule('quarantine') }),
      await createForm(t, owner.token, { status: 'live', retention: { days: 30 } }),
    );
  });
  afterAll(() => t.close());

  const db = () => t.app.intake.database.db;

  /** What the counters must say: every row counted again. */
  async function fullCount() {
    const rows = await db()
      .selectFrom('submissions')
      .select([
        'form_id',
        sql<number>`count(*)`.as('submissions'),
        sql<number>`sum(case when read = 0 then 1 else 0 end)`.as('unread'),
        sql<string>`max(created_at)`.as('last'),
      ])
      .where(
        'form_id',
        'in',
        forms.map((form) => form.id),
      )
      .where('status', 'in', [...LISTED])
      .groupBy('form_id')
      .orderBy('form_id')
      .execute();
    return rows.map((row) => ({
      formId: row.form_id,
      submissions: Number(row.submissions),
      unread: Number(row.unread),
      lastSubmissionAt: row.last,
    }));
  }

  async function summary() {
    const answer = await t.request({
      method: 'GET',
      url: '/responses/summary?environment=development',
      auth: owner.token,
    });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data;
  }

  async function idsOf(formId: string): Promise<string[]> {
    const rows = await db().selectFrom('submissions').select('id').where('form_id', '=', formId).execute();
    return rows.map((row) => row.id);
  }

  it('equal a full count after random operations', async () => {
    const next = seededRandom(24);
    const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)];
    const done: Record<string, number> = {};
    for (let step = 0; step < 160; step++) {
      const form = pick(forms) as { id: string };
      const ids = await idsOf(form.id);
      const roll = next();
      let operation: string;
      if (roll < 0.45 || ids.length === 0) {
        operation = 'submit';
        const name = next() < 0.3 ? 'spam' : `Person ${step}`;
        const sent = await t.request({
          method: 'POST',
          url: `/forms/${form.id}/submit`,
          body: { answers: { name, email: 'someone@example.com' } },
        });
        expect(sent.status, sent.text).toBe(201);
      } else if (roll < 0.7) {
        operation = 'read';
        const answer = await t.request({
          method: 'POST',
          url: `/responses/${pick(ids)}/read`,
          auth: owner.token,
          body: { read: next() < 0.6 },
        });
        expect(answer.status, answer.text).toBe(200);
      } else if (roll < 0.8) {
        operation = 'star';
        const answer = await t.request({
          method: 'POST',
          url: `/responses/${pick(ids)}/star`,
          auth: owner.token,
          body: { starred: next() < 0.5 },
        });
        expect(answer.status, answer.text).toBe(200);
      } else if (roll < 0.97) {
        operation = 'delete';
        const answer = await t.request({
          method: 'DELETE',
          url: `/responses/${pick(ids)}`,
          auth: owner.token,
        });
        expect(answer.status, answer.text).toBe(204);
      } else {
        operation = 'retention';
        // everything of the form that keeps 30 days is older than that 40 days on
        await runRetention(t.app.intake.database, new Date(Date.now() + 40 * DAY), { batchSize: 3 });
      }
      done[operation] = (done[operation] ?? 0) + 1;
      if (step % 20 === 19) expect(await summary(), `after step ${step}`).toEqual(await fullCount());
    }
    expect(await summary()).toEqual(await fullCount());
    // the sequence did every kind of operation, and left counts to compare
    expect(Object.keys(done).sort()).toEqual(['delete', 'read', 'retention', 'star', 'submit']);
    expect((await fullCount()).length).toBeGreaterThan(0);
  });

  it('take the newest submission left as the last when the newest is deleted', async () => {
    const [form] = forms as [{ id: string }];
    for (const name of ['First', 'Second']) {
      const sent = await t.request({
        method: 'POST',
        url: `/forms/${form.id}/submit`,
        body: { answers: { name, email: 'someone@example.com' } },
      });
      expect(sent.status, sent.text).toBe(201);
    }
    const newest = await db()
      .selectFrom('submissions')
      .select('id')
      .where('form_id', '=', form.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const deleted = await t.request({ method: 'DELETE', url: `/responses/${newest.id}`, auth: owner.token });
    expect(deleted.status).toBe(204);
    const counted = (await summary()).find((item: { formId: string }) => item.formId === form.id);
    const truth = (await fullCount()).find((item) => item.formId === form.id);
    expect(counted).toEqual(truth);
  });

  it('leave a form out once its last listed submission is gone', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const sent = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { name: 'Only', email: 'someone@example.com' } },
    });
    expect(sent.status, sent.text).toBe(201);
    const listed = async () =>
      (
        await t.request({
          method: 'GET',
          url: '/responses/summary?environment=development',
          auth: user.token,
        })
      ).body.data;
    expect(await listed()).toMatchObject([{ formId: form.id, submissions: 1, unread: 1 }]);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/responses/${sent.body.id}`,
      auth: user.token,
    });
    expect(deleted.status).toBe(204);
    expect(await listed()).toEqual([]);
  });

  it("add a batch's own counts, each to its own counter: accepted, listed, unread and the newest time", async () => {
    const form = await createForm(t, owner.token, { status: 'live' });
    /** The form's row, its counts as numbers (PostgreSQL's bigint arrives as text). */
    const row = async () => {
      const counts = await db()
        .selectFrom('form_counts')
        .select(['accepted', 'listed', 'unread', 'last_at'])
        .where('form_id', '=', form.id)
        .executeTakeFirstOrThrow();
      return {
        ...counts,
        accepted: Number(counts.accepted),
        listed: Number(counts.listed),
        unread: Number(counts.unread),
      };
    };
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
    const added = (status: 'accepted' | 'flagged' | 'quarantined', read: boolean, second: number) => ({
      formId: form.id,
      status,
      read,
      createdAt: at(second),
    });
    // 4 listed (1 of them read → 3 unread), one quarantined (not listed); 7 accepted, the count the
    // writer passes for forms without a limit (writer-counts.ts acceptedUnlimited)
    const batch = [
      added('accepted', false, 5),
      added('accepted', true, 9),
      added('flagged', false, 7),
      added('accepted', false, 3),
      added('quarantined', false, 20),
    ];
    await t.app.intake.database.transaction((trx) => countStored(trx, batch, new Map([[form.id, 7]])));
    expect(await row()).toEqual({
      accepted: 7,
      listed: 4,
      unread: 3,
      last_at: at(9),
    });
    // a second batch: an older one leaves the newest as it was; one with nothing listed adds only what it accepted
    await t.app.intake.database.transaction((trx) =>
      countStored(trx, [added('accepted', true, 1)], new Map()),
    );
    await t.app.intake.database.transaction((trx) =>
      countStored(trx, [added('quarantined', false, 30)], new Map([[form.id, 2]])),
    );
    expect(await row()).toEqual({
      accepted: 9,
      listed: 5,
      unread: 3,
      last_at: at(9),
    });
    await t.app.intake.database.transaction((trx) =>
      countStored(trx, [added('flagged', false, 40)], new Map()),
    );
    expect((await row()).last_at).toBe(at(40));
  });
});
