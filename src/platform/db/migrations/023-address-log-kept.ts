import { type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * `response_address_log` (the claims of `oncePer: "email"`) is no longer merged into
 * `response_addresses` on SQLite: it keeps every claim since this version, and the process holds
 * each claimed form's addresses in memory (features/submissions/address-claims.ts). It is read by
 * form and submission (a form's claims read into memory, a form deleted, the retention job's
 * sweep, a release, a doubtful claim asked after), so that is its key. On SQLite the table is
 * built again as a `WITHOUT ROWID` table on that key: the rows are the key's B-tree, one write a
 * claim where a table and an index beside it were two (measured: 508 bytes of WAL a submission
 * more than a plain form's, against 755 with an index), and as submission ids are in time order
 * each form's claims are appended at its end. PostgreSQL, which claims in `response_addresses` and leaves
 * the log empty, gets an index on the same columns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await rebuild(db, true);
    return;
  }
  await db.schema
    .createIndex('response_address_log_form')
    .on('response_address_log')
    .columns(['form_id', 'submission_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await rebuild(db, false);
    return;
  }
  await db.schema.dropIndex('response_address_log_form').execute();
}

/**
 * SQLite: the log built again keyed (`keyed`, without rowid) with its rows, or as it was (a rowid
 * table, no index) with its claims moved into `response_addresses`, all or nothing (Kysely runs
 * SQLite's migrations outside a transaction).
 */
async function rebuild(db: Kysely<unknown>, keyed: boolean): Promise<void> {
  await sql`savepoint rebuild_address_log`.execute(db);
  try {
    const columns = sql`form_id text not null, address_hash text not null, submission_id text not null,
      created_at text not null`;
    await (keyed
      ? sql`create table response_address_log_next (${columns},
          constraint response_address_log_pk primary key (form_id, submission_id, address_hash)) without rowid`
      : sql`create table response_address_log_next (${columns})`
    ).execute(db);
    if (!keyed) {
      // the version before merges its log in one statement and holds it all in memory: its claims
      // are moved into the unique table first, as its merge would have, and the log left empty
      await sql`insert into response_addresses (form_id, address_hash, submission_id, created_at)
        select form_id, address_hash, submission_id, created_at from response_address_log
        where true order by form_id, address_hash
        on conflict do nothing`.execute(db);
      await sql`delete from response_address_log`.execute(db);
    }
    // a row repeated in the old log (never written so, but the key would refuse the whole copy) once
    await sql`insert or ignore into response_address_log_next (form_id, address_hash, submission_id, created_at)
      select form_id, address_hash, submission_id, created_at from response_address_log
      order by form_id, submission_id, address_hash`.execute(db);
    await sql`drop table response_address_log`.execute(db);
    await sql`alter table response_address_log_next rename to response_address_log`.execute(db);
    await sql`release rebuild_address_log`.execute(db);
  } catch (error) {
    await sql`rollback to rebuild_address_log`.execute(db);
    await sql`release rebuild_address_log`.execute(db);
    throw error;
  }
}
