import type { Kysely } from 'kysely';

/**
 * The submit path writes no index keyed by a random value. Migration 017's
 * `submissions_form_session` (form, session, status) put each new submission at a random place
 * of its B-tree: one more page dirtied, and written to the WAL, per submission (the submit bench
 * measured it: see bench/RESULTS.md, "the drop-off index"). What it served, the drop-off's "did
 * this session complete the form", now reads the form's submissions since the range began from
 * the inbox's index, which takes each new submission at its end (form, time): that index holds
 * the session and the status too, so the drop-off reads neither the rows nor a second index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_form_session').ifExists().execute();
  await db.schema.dropIndex('submissions_form_list').ifExists().execute();
  await db.schema
    .createIndex('submissions_form_list')
    .on('submissions')
    .columns(['form_id', 'created_at', 'id', 'session_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_form_list').execute();
  await db.schema
    .createIndex('submissions_form_list')
    .on('submissions')
    .columns(['form_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('submissions_form_session')
    .on('submissions')
    .columns(['form_id', 'session_id', 'status'])
    .execute();
}
