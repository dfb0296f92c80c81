import type { Kysely } from 'kysely';

/**
 * `response_address_log`: on SQLite, the addresses `oncePer: "email"` claimed lately, appended
 * in the order they were taken and merged into `response_addresses` in bulk
 * (features/submissions/address-claims.ts). A claim written straight into the unique index
 * dirtied a random leaf page of it per submission, which doubled the WAL flush every batch waits
 * for; appended here it shares the page of its neighbours. No key and no index: the table is
 * only ever read whole, and kept small by the merge. PostgreSQL, where several instances claim
 * at once and only the unique index can tell them apart, leaves it empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('response_address_log')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('address_hash', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('response_address_log').execute();
}
