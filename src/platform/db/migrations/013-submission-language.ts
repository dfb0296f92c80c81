import type { Kysely } from 'kysely';

/**
 * The language a submission's form was shown in (API.md §13): the hosted page's, or for the API
 * the best of `?lang=` and `Accept-Language` among the form's languages. Submissions stored
 * before it have none (null).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submissions').addColumn('language', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submissions').dropColumn('language').execute();
}
