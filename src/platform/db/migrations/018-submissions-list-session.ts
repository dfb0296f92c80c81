import type { Kysely } from 'kysely';

/**
 * The submit path writes no index keyed by a random value. Migration 017's
 * `submissions_form_session` (form, session, status) put each new submission at a random place
 * of its B-tree: a page more dirtied, and written to the WAL, per submission (bench/wal-cost.ts:
 * SQLite 1,827 bytes of WAL a submission before 017, 2,486 with it, 1,909 without it again;
 * PostgreSQL 710, 905, 723). What it served, the drop-off's "did this session complete the form",
 * now reads the form's submissions since the range began through the inbox's index (form, time),
 * grouped with the range's sessions (analytics/drop-off-repo.ts): the drop-off reads more, so that
 * no submission writes more. Widening the inbox's index with the session instead cost 7 % more WAL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_form_session').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('submissions_form_session')
    .on('submissions')
    .columns(['form_id', 'session_id', 'status'])
    .execute();
}
