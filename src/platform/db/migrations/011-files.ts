import type { Kysely } from 'kysely';

/**
 * Files (API.md §12). A row is written before any byte is (`state` = `writing`), so that an
 * object a crash leaves behind is always known and swept; it becomes `uploaded` once its bytes
 * are stored and judged (an upload id to submit with, for 24 hours), and `attached` in the
 * transaction that stores the submission naming it (or `forwarded` for a form that keeps no
 * submissions: kept until its links expire). No foreign keys: a file must outlive the deletion
 * of its submission or form just long enough for the sweep to remove its bytes, then its row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('upload_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('field_id', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    // null when no bytes are kept (PII hashed or dropped)
    .addColumn('storage_key', 'text')
    // JSON {key (envelope-encrypted), iv, tag} when the bytes are stored encrypted
    .addColumn('encryption', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('files_submission').on('files').column('submission_id').execute();
  await db.schema.createIndex('files_state_expiry').on('files').columns(['state', 'expires_at']).execute();
  await db.schema.createIndex('files_owner').on('files').columns(['user_id', 'environment']).execute();
}
