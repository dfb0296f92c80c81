import { type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * `response_addresses` and `response_address_log` (the claims of `oncePer: "email"`) lose their
 * foreign key to `forms`. Its check ran for every claim: on PostgreSQL a lookup of the form and a
 * lock on its row, ~10 µs a claim measured in PostgreSQL alone (multi-row inserts of 20 claims into
 * 200,000), and 14 µs of PostgreSQL's CPU a submission measured in the service; on SQLite a lookup
 * per claim, twice (the log, then the merge). What the key's cascade did, deleting a form's claims
 * with the form, `deleteForm` (features/forms/repo.ts) now does itself, and the retention job
 * sweeps the claims of a form deleted while a submission to it was being written
 * (features/submissions/retention.ts).
 *
 * PostgreSQL drops the constraint in place (Kysely runs its migrations in a transaction there).
 * SQLite cannot drop a constraint: both tables are built again without it, under a savepoint of
 * their own (Kysely runs SQLite's migrations outside a transaction), so that a failure half-way
 * (a full disk while the rows are copied) leaves the tables as they were.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await rebuildSqlite(db, false);
    return;
  }
  for (const table of TABLES) {
    const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
      where conrelid = ${table}::regclass and contype = 'f'`.execute(db);
    for (const { name } of rows)
      await sql`alter table ${sql.table(table)} drop constraint ${sql.id(name)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await rebuildSqlite(db, true);
    return;
  }
  for (const table of TABLES) {
    await sql`delete from ${sql.table(table)} where form_id not in (select id from forms)`.execute(db);
    await sql`alter table ${sql.table(table)} add foreign key (form_id)
      references forms (id) on delete cascade`.execute(db);
  }
}

const TABLES = ['response_addresses', 'response_address_log'] as const;

/** Both tables built again with (`bound`) or without the foreign key, their rows and indexes kept, all or nothing. */
async function rebuildSqlite(db: Kysely<unknown>, bound: boolean): Promise<void> {
  // a savepoint opens a transaction outside one, and nests inside one (a test's)
  await sql`savepoint rebuild_address_claims`.execute(db);
  try {
    await rebuildTables(db, bound);
    await sql`release rebuild_address_claims`.execute(db);
  } catch (error) {
    await sql`rollback to rebuild_address_claims`.execute(db);
    await sql`release rebuild_address_claims`.execute(db);
    throw error;
  }
}

async function rebuildTables(db: Kysely<unknown>, bound: boolean): Promise<void> {
  const formId = bound
    ? sql`form_id text not null references forms (id) on delete cascade`
    : sql`form_id text not null`;
  const columns = sql`address_hash text not null, submission_id text not null, created_at text not null`;
  await sql`create table response_addresses_next (${formId}, ${columns},
    constraint response_addresses_pk primary key (form_id, address_hash))`.execute(db);
  await sql`insert into response_addresses_next (form_id, address_hash, submission_id, created_at)
    select form_id, address_hash, submission_id, created_at from response_addresses
    ${bound ? sql`where form_id in (select id from forms)` : sql``}
    order by form_id, address_hash`.execute(db);
  await sql`drop table response_addresses`.execute(db);
  await sql`alter table response_addresses_next rename to response_addresses`.execute(db);
  await sql`create index response_addresses_submission on response_addresses (submission_id)`.execute(db);

  // the log keeps its order (rowid): merges move its oldest claims first
  await sql`create table response_address_log_next (${formId}, ${columns})`.execute(db);
  await sql`insert into response_address_log_next (rowid, form_id, address_hash, submission_id, created_at)
    select rowid, form_id, address_hash, submission_id, created_at from response_address_log
    ${bound ? sql`where form_id in (select id from forms)` : sql``}
    order by rowid`.execute(db);
  await sql`drop table response_address_log`.execute(db);
  await sql`alter table response_address_log_next rename to response_address_log`.execute(db);
}
