import type { Kysely } from 'kysely';

/**
 * `completed_progress`: the resume tokens of partials that were completed (API.md §15), until they
 * would have expired. A partial's own row (`partial_progress`) goes with it when its submission is
 * stored under its id; without this one, a second device finishing the same saved answers a
 * moment later was "no token" and stored a second submission. Kept as SHA-256 hashes, like every
 * token; deleted by the retention job once expired, and with their form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('completed_progress')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('completed_progress_expires')
    .on('completed_progress')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('completed_progress').execute();
}
