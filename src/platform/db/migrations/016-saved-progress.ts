import type { Kysely } from 'kysely';

/**
 * Saved progress (API.md §15): a one-by-one form's answers so far are a submission with status
 * `partial`; `partial_progress` holds what only a partial has: its resume token (kept as a
 * SHA-256 hash, like every token), the question it was left at, and when it expires (30 days
 * after its last save; the retention job deletes it then). Deleting the submission (its
 * completion, the owner, retention) deletes this row with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('partial_progress')
    .addColumn('submission_id', 'text', (c) =>
      c.primaryKey().references('submissions.id').onDelete('cascade'),
    )
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('question_id', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('partial_progress_expires')
    .on('partial_progress')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('partial_progress').execute();
}
