import type { Kysely } from 'kysely';

/**
 * The dashboard's list of forms counts each form's inbox of an environment at once
 * (GET /responses/summary): found by owner, environment and status, grouped by form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('submissions_owner_summary')
    .on('submissions')
    .columns(['user_id', 'environment', 'status', 'form_id'])
    .execute();
}
