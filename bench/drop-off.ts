import { type Insertable, sql } from 'kysely';
import type { Schema } from '../src/platform/db/schema.js';
import { createTestApp } from '../test/support/app.js';
import { signup } from '../test/support/factories.js';

/**
 * GET /analytics/drop-off of a one-by-one form with many sessions (API.md §15): the time of the
 * answer and the memory it takes, on whichever engine DATABASE_URL names (SQLite without it).
 * Sessions are written straight into the tables: session i reached questions 0 … i mod 5 (the
 * last unanswered), every session has a view, every tenth sent the form (a submission with its
 * session id), and every fourth view sent no page.
 *
 *   npx tsx bench/drop-off.ts [sessions, default 1000000]
 */

const SESSIONS = Number(process.argv[2] ?? 1_000_000);
const QUESTIONS = ['q1', 'q2', 'q3', 'q4', 'q5'];
const CHUNK = 2_000;

const t = await createTestApp({ rateLimitPublic: 1_000_000_000 });
try {
  const user = await signup(t);
  const created = await t.request({
    method: 'POST',
    url: '/forms',
    auth: user.token,
    body: {
      title: 'Long form',
      environment: 'development',
      status: 'live',
      fields: QUESTIONS.map((id) => ({ id, type: 'text', label: `Question ${id}` })),
      ui: { layout: 'one-by-one' },
    },
  });
  if (created.status !== 201) throw new Error(created.text);
  const formId = created.body.id as string;
  const { db } = t.app.intake.database;
  const form = await db.selectFrom('forms').selectAll().where('id', '=', formId).executeTakeFirstOrThrow();
  const at = new Date().toISOString();

  const seeded = Date.now();
  for (let start = 0; start < SESSIONS; start += CHUNK) {
    const steps: Insertable<Schema['form_steps']>[] = [];
    const views: Insertable<Schema['form_events']>[] = [];
    const sent: Insertable<Schema['submissions']>[] = [];
    for (let i = start; i < Math.min(SESSIONS, start + CHUNK); i++) {
      const session = `s${i}`;
      views.push({
        form_id: formId,
        type: 'view' as const,
        session_id: session,
        workspace_id: form.workspace_id,
        environment: 'development',
        created_at: at,
      });
      if (i % 4 === 3) continue; // a view alone
      const furthest = i % QUESTIONS.length;
      for (let q = 0; q <= furthest; q++)
        steps.push({
          form_id: formId,
          session_id: session,
          field_id: QUESTIONS[q] as string,
          answered: q < furthest ? 1 : 0,
          reached_at: at,
        });
      if (i % 10 === 0)
        sent.push({
          id: `sub_${session}`,
          workspace_id: form.workspace_id,
          environment: 'development',
          form_id: formId,
          form_version: 1,
          answers: '{}',
          session_id: session,
          status: 'accepted' as const,
          read: 0,
          starred: 0,
          created_at: at,
        });
    }
    await t.app.intake.database.transaction(async (trx) => {
      await trx.insertInto('form_events').values(views).execute();
      for (let i = 0; i < steps.length; i += 1_000)
        await trx
          .insertInto('form_steps')
          .values(steps.slice(i, i + 1_000))
          .execute();
      if (sent.length > 0) await trx.insertInto('submissions').values(sent).execute();
    });
  }
  if (t.config.databaseUrl) await sql`analyze`.execute(db);
  const rows = await db
    .selectFrom('form_steps')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  console.log(
    `${SESSIONS} sessions, ${Number(rows.n)} step rows seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`,
  );

  for (let run = 1; run <= 3; run++) {
    global.gc?.();
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    const answer = await t.request({
      method: 'GET',
      url: `/analytics/drop-off?environment=development&form_id=${formId}`,
      auth: user.token,
    });
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(answer.text);
    const grown = (process.memoryUsage().rss - rss) / 2 ** 20;
    console.log(
      `run ${run}: ${ms.toFixed(0)} ms, RSS +${grown.toFixed(1)} MiB, sessions ${answer.body.sessions}, completed ${answer.body.completed}`,
    );
    if (run === 1) console.log(JSON.stringify(answer.body.questions));
  }
} finally {
  await t.close();
}
