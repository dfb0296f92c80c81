import { sql } from 'kysely';
import { createTestApp } from '../test/support/app.js';
import { createForm, signup } from '../test/support/factories.js';

/**
 * What the database writes per submission: WAL bytes on SQLite (frames × page) and on
 * PostgreSQL (LSN distance), for `ROUNDS` rounds of `CONCURRENT` submissions sent at once (so the
 * writer batches them, as under load). Unlike req/s on a shared machine, this barely moves from
 * run to run: it shows what an index or a counter costs the submit path, and compares two commits.
 *
 *   npx tsx bench/wal-cost.ts [rounds, default 6] [concurrent, default 50] [stored first, default 20000]
 *   DATABASE_URL=postgres://… npx tsx bench/wal-cost.ts
 *   WAL_COST_ACCESS='{"oncePer":"email","emailField":"email"}' npx tsx bench/wal-cost.ts   (response controls)
 */

const ROUNDS = Number(process.argv[2] ?? 6);
const CONCURRENT = Number(process.argv[3] ?? 50);
/** Submissions stored before measuring: an index's random inserts cost more pages as its tree grows. */
const STORED_FIRST = Number(process.argv[4] ?? 20_000);

const t = await createTestApp({ rateLimitPublic: 1_000_000_000, monthlyQuota: 0 });
try {
  const user = await signup(t);
  const access = process.env.WAL_COST_ACCESS ? JSON.parse(process.env.WAL_COST_ACCESS) : undefined;
  const form = await createForm(t, user.token, { status: 'live', ...(access ? { access } : {}) });
  const send = (i: number) =>
    t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: {
        answers: { name: `Person ${i}`, email: `p${i}@example.com` },
        sessionId: `sess-${i}-${Math.random()}`,
      },
    });
  let sent = 0;
  while (sent < STORED_FIRST) {
    await Promise.all(Array.from({ length: 500 }, (_, i) => send(sent + i)));
    sent += 500;
  }

  const { db } = t.app.intake.database;
  // SQLite: through the service's own connection (it holds the database's lock)
  const sqlite = !t.config.databaseUrl;
  const pragma = async (text: string) =>
    (await sql.raw(`pragma ${text}`).execute(db)).rows as Array<Record<string, number>>;
  const lsn = async () =>
    (await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(db)).rows[0]?.lsn ?? '0/0';
  let bytes = 0;
  let measured = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // SQLite: an empty WAL before each round, and its frames counted after (no checkpoint meanwhile
    // at these sizes: the automatic one waits for 1,000 pages)
    if (sqlite) await pragma('wal_checkpoint(TRUNCATE)');
    const before = sqlite ? 0 : await lsn();
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => send(sent + i)));
    if (answers.some((answer) => answer.status !== 201)) throw new Error('a submission was refused');
    sent += CONCURRENT;
    measured += CONCURRENT;
    if (sqlite) {
      const [status] = await pragma('wal_checkpoint(PASSIVE)');
      const [size] = await pragma('page_size');
      bytes += (status?.log ?? 0) * ((size?.page_size ?? 4096) + 24);
    } else {
      const after = await lsn();
      const diff = await sql<{ n: string }>`select pg_wal_lsn_diff(${after}, ${before})::text as n`.execute(
        db,
      );
      bytes += Number(diff.rows[0]?.n ?? 0);
    }
  }
  console.log(
    `${t.config.databaseUrl ? 'PostgreSQL' : 'SQLite'}: ${measured} submissions in rounds of ${CONCURRENT}, ` +
      `${STORED_FIRST} stored first${access ? `, access ${JSON.stringify(access)}` : ''}: ` +
      `${Math.round(bytes / measured)} bytes of WAL per submission`,
  );
} finally {
  await t.close();
}
