import type { Kysely } from 'kysely';

/**
 * Drop-off (API.md §15): `form_steps`, one row per form, visitor session and question that the
 * session reached on a one-by-one hosted page, with whether it answered it (0 or 1) and when it
 * first reached it. The primary key is what counts a session once per question however often it
 * goes Back and Next: each page's post upserts its rows, `answered` only ever raised. Rows go with
 * their form (a foreign key, on delete cascade), like the form's events.
 *
 * `form_steps_form_time` reads one form's steps of a range by the time reached, the index alone
 * answering the counts. `submissions_form_session`: whether a session completed the form (a
 * stored submission with its `session_id`), looked up per session by the drop-off's count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('form_steps')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('field_id', 'text', (c) => c.notNull())
    .addColumn('answered', 'integer', (c) => c.notNull())
    .addColumn('reached_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('form_steps_pk', ['form_id', 'session_id', 'field_id'])
    .execute();
  await db.schema
    .createIndex('form_steps_form_time')
    .on('form_steps')
    .columns(['form_id', 'reached_at', 'session_id', 'field_id', 'answered'])
    .execute();
  await db.schema
    .createIndex('submissions_form_session')
    .on('submissions')
    .columns(['form_id', 'session_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_form_session').execute();
  await db.schema.dropTable('form_steps').execute();
}
