import { type Kysely, sql } from 'kysely';

/**
 * The forms list's counts in constant time (GET /responses/summary): `form_counts` also keeps,
 * per form, its listed submissions (accepted and flagged: the inbox's own), how many of them are
 * unread, and when the last one came. Every write that changes one keeps them in its own
 * transaction (submissions/counters.ts); here they start from the submissions stored so far.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('form_counts')
    .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('form_counts')
    .addColumn('unread', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('form_counts').addColumn('last_at', 'text').execute();
  await countListedSoFar(db);
}

/**
 * Each form's listed, unread and last, from the submissions stored so far: also what the
 * benchmark runs after loading rows straight into the table.
 */
export const COUNT_LISTED_SO_FAR = `insert into form_counts (form_id, accepted, listed, unread, last_at)
  select form_id, 0, count(*), sum(case when read = 0 then 1 else 0 end), max(created_at)
  from submissions where status in ('accepted', 'flagged') group by form_id
  on conflict (form_id) do update
  set listed = excluded.listed, unread = excluded.unread, last_at = excluded.last_at`;

export async function countListedSoFar(db: Kysely<unknown>): Promise<void> {
  await sql.raw(COUNT_LISTED_SO_FAR).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('form_counts').dropColumn('last_at').execute();
  await db.schema.alterTable('form_counts').dropColumn('unread').execute();
  await db.schema.alterTable('form_counts').dropColumn('listed').execute();
}
