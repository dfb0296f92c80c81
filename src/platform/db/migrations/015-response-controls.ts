import { type Kysely, sql } from 'kysely';

/**
 * Response controls (API.md §15). `form_counts`: the accepted submissions of each form, counted
 * by the submit path's writer in the submissions' own transaction (a conditional upsert: the row
 * lock, or SQLite's one writer, keeps `maxSubmissions` exact across instances), started from the
 * accepted submissions stored so far. `response_addresses`: the keyed hash of the address each
 * submission of a form with `oncePer: "email"` was sent from, unique per form, written with the
 * submission (so it holds whatever the field's PII mode keeps of the answer itself).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('form_counts')
    .addColumn('form_id', 'text', (c) => c.primaryKey().references('forms.id').onDelete('cascade'))
    .addColumn('accepted', 'integer', (c) => c.notNull())
    .execute();
  await countAcceptedSoFar(db);

  await db.schema
    .createTable('response_addresses')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('address_hash', 'text', (c) => c.notNull())
    // no foreign key: a form that keeps no submissions (storage.mode "none") still counts addresses
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('response_addresses_pk', ['form_id', 'address_hash'])
    .execute();
  await db.schema
    .createIndex('response_addresses_submission')
    .on('response_addresses')
    .column('submission_id')
    .execute();
}

/** Each form's count, started from the accepted submissions stored before the counts were kept. */
export async function countAcceptedSoFar(db: Kysely<unknown>): Promise<void> {
  await sql`insert into form_counts (form_id, accepted)
    select form_id, count(*) from submissions where status = 'accepted' group by form_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('response_addresses').execute();
  await db.schema.dropTable('form_counts').execute();
}
