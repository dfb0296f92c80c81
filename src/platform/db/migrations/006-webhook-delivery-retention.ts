import type { Kysely } from 'kysely';

/** Finished deliveries are pruned by age (submissions/retention.ts): found by status and last change. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_finished')
    .on('webhook_deliveries')
    .columns(['status', 'updated_at'])
    .execute();
}
