import { type Compilable, type Insertable, type RawBuilder, sql } from 'kysely';
import { executeCached } from '../../platform/db/cached-statement.js';
import type { Database, Trx } from '../../platform/db/database.js';
import type { Engine } from '../../platform/db/dialect.js';
import { boundRows } from '../../platform/db/insert.js';
import type { Schema } from '../../platform/db/schema.js';

/**
 * `oncePer: "email"` (API.md §15): each address a form took a submission from, as its keyed hash,
 * claimed in the submission's own transaction, so that of two submissions from one address only
 * one is ever stored, however they race.
 *
 * PostgreSQL claims in `response_addresses` itself: its unique index is what tells concurrent
 * instances apart. On SQLite this process is the only writer (the database is locked to it), which
 * allows a cheaper claim. Written into the unique index, each claim dirtied a random leaf page of
 * it (the hashes are random): more WAL to write and flush per batch, and more checkpoints (a form
 * with `oncePer` took 65–80 % of a plain form's submissions a second; docs/decisions.md has the
 * figures before and after). So on SQLite a claim is appended to `response_address_log` in the
 * order claims arrive, sharing pages like the submissions beside it, and this process holds the
 * index of that log in memory (`recent`, and the `sealed` generations of merges under way), read
 * from it before the first claim. An address is taken when it is in `response_addresses` (asked by
 * the same statement that appends) or in memory. Every `MERGE_AFTER` claims the log is merged into
 * `response_addresses`: in one sorted statement while that table is small, which dirties each leaf
 * page once for many claims; in chunks of its oldest claims once it is large (`CHUNKED_MERGE_PAST`).
 *
 * The log is the truth, `recent` its index. An entry whose claim may not have stayed in the log
 * (its transaction failed after the claim, its submission was refused or deleted) is marked
 * doubtful rather than trusted or dropped: a claim for a doubtful address asks the log itself
 * (a scan of the log, about a merge's worth of rows, more while a chunked merge runs or after one
 * failed, on that rare path only). So `recent` never answers
 * "free" for an address the log holds. It can answer "taken" for a claim just undone, until its
 * writer hears of the failure and marks it doubtful: a refusal too many for a moment, never a
 * second submission stored.
 */

export interface AddressClaim {
  formId: string;
  hash: string;
  submissionId: string;
  createdAt: string;
  /** The refusal when the address has sent one already (409 already_submitted). */
  refusal: () => unknown;
}

/** Claims held in SQLite's log (and in memory) before it is merged into the indexed table. */
export const MERGE_AFTER = 16_384;

/**
 * Rows of the indexed table past which a merge moves the log in chunks of `MERGE_CHUNK`, oldest
 * claims first, each chunk its own transaction. One sorted statement writes each leaf page of a
 * small index once for many claims, but its time grows with the index (16,384 claims into an
 * index of 100,000: 370–530 ms; of 1,000,000: 1.2 s, measured in better-sqlite3 alone), all of it
 * one unit of work holding the event loop. Taken in the order of the claims, chunks append to the
 * submission-id index as one merge does; what they give up is the unique index's locality, each
 * chunk's claims spread over all of it (at this size about 3,500 leaf pages, 4–5 claims a page for
 * one merge; at a million, nearly a page per claim whatever the order). So below this size one
 * statement stays, whose pause is a few hundred milliseconds at most; the size is a judgement
 * between that pause and the writes, not a measured optimum. Chunks in hash order were measured
 * worse at the benchmark's scale: each rewrote that index's newest pages (p99 19 → 40 ms).
 */
export const CHUNKED_MERGE_PAST = 131_072;

/** Claims a chunk of a merge moves: about 60 ms of the event loop at a million claims indexed (115 ms for 1,024, measured). */
export const MERGE_CHUNK = 512;

interface Entry {
  submissionId: string;
  /** The claim may be gone from the log: ask the log before taking or refusing the address. */
  doubtful: boolean;
}

/** What a merge moved: the generations of the book it made stale, dropped once the merge has committed. */
export interface Merged {
  stale: readonly ReadonlyMap<string, Entry>[];
  /** Chunked merges: the log's last row when the merge began; later rows are the next merge's. */
  lastRow: number;
}

const keyOf = (formId: string, hash: string) => `${formId}\u0000${hash}`;

/**
 * Claims in the order every batch takes them on PostgreSQL (form, hash), the transaction's and
 * the one statement's (one-statement.ts), so two batches never wait on each other crosswise.
 * Repeated addresses are kept: the second finds the first's row.
 */
export function inClaimOrder<T extends { formId: string; hash: string }>(claims: readonly T[]): T[] {
  return claims
    .map((claim) => ({ claim, key: keyOf(claim.formId, claim.hash) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ claim }) => claim);
}

export class AddressBook {
  /** SQLite: the log's claims by form and hash (see above), those since the last merge began. */
  private recent = new Map<string, Entry>();
  /**
   * The claims of merges not yet committed, newest first: asked after `recent`, dropped whole
   * once their merge has committed. Handing a merge the map as it is, rather than a copy of its
   * entries to compare and delete one by one afterwards, took 12–35 ms of the event loop off
   * each merge of 16,384 claims (measured in the service).
   */
  private sealed: Map<string, Entry>[] = [];
  private loaded = false;

  constructor(
    private readonly engine: Engine,
    /** Claims held before the log is merged (tests make it small). */
    private readonly mergeAfter = MERGE_AFTER,
    /** The indexed table's size past which merges go in chunks, and their size (tests make them small). */
    private readonly chunking = { past: CHUNKED_MERGE_PAST, chunk: MERGE_CHUNK },
  ) {}

  /**
   * SQLite: about how many rows the indexed table holds: its highest rowid at load (deletions
   * leave gaps), then counted up by each merge as it runs (a merge rolled back still counted).
   */
  private indexed = 0;

  /**
   * SQLite: reads the log into memory, outside any transaction, before the first claim: the
   * writer does it the first time a batch claims (writer.ts), so a process that serves no form
   * with `oncePer: "email"` never holds the log (a log of 12,000 claims read at start put 5 MiB on
   * the idle RSS). Read inside a transaction, it would miss a release of the same group commit
   * that is then undone with it, and answer "free" for an address the log holds again.
   */
  async load(database: Database): Promise<void> {
    if (this.engine !== 'sqlite' || this.loaded) return;
    const { highest } = await database.db
      .selectFrom('response_addresses')
      .select(sql<number | null>`max(rowid)`.as('highest'))
      .executeTakeFirstOrThrow();
    // Read last, and kept without another wait: a transaction run between this read and the
    // entries below (a release, say) would find memory empty and leave them unmarked.
    const rows = await database.db
      .selectFrom('response_address_log')
      .select(['form_id', 'address_hash', 'submission_id'])
      .execute();
    // another batch's load may have finished meanwhile: it read the same committed log
    if (this.loaded) return;
    this.indexed = Number(highest ?? 0);
    for (const row of rows)
      this.recent.set(keyOf(row.form_id, row.address_hash), {
        submissionId: row.submission_id,
        doubtful: false,
      });
    this.loaded = true;
  }

  /** Claims a chunk of a chunked merge moves at most. */
  get mergeChunk(): number {
    return this.chunking.chunk;
  }

  /** Claims held in memory (tests). */
  get held(): number {
    return this.sealed.reduce((sum, generation) => sum + generation.size, this.recent.size);
  }

  /** SQLite: the log holds enough claims to be merged (about as many as are held in memory). */
  get mergeDue(): boolean {
    // the generations of a merge that failed count too: the next claims try it again
    return this.held >= this.mergeAfter;
  }

  /**
   * Claims each address for its form, in one statement for a batch; a claim finding its address
   * taken (by an earlier submission, a concurrent transaction that committed first, or an earlier
   * claim of this batch) takes nothing. The submission ids whose claim was taken.
   */
  async claim(trx: Trx, claims: readonly AddressClaim[]): Promise<Set<string>> {
    if (claims.length === 0) return new Set();
    if (this.engine === 'postgres') {
      const ordered = inClaimOrder(claims);
      const values = ordered.flatMap((claim) => [
        claim.formId,
        claim.hash,
        claim.submissionId,
        claim.createdAt,
      ]);
      // built by Kysely once per number of claims (cached-statement.ts)
      const build = (bound: readonly unknown[]) =>
        trx
          .insertInto('response_addresses')
          .values(boundRows(bound, CLAIM_COLUMNS) as Insertable<Schema['response_addresses']>[])
          .onConflict((conflict) => conflict.columns(['form_id', 'address_hash']).doNothing())
          .returning('submission_id');
      const { rows } = await executeCached(trx, `address claims: claim ${ordered.length}`, values, build);
      return new Set(rows.map(({ submission_id }) => submission_id));
    }
    if (!this.loaded) throw new Error('AddressBook.load must run before the first claim');
    const asked: AddressClaim[] = [];
    /** Per asked claim: 1 when its address is doubtful, so the statement asks the log for it alone. */
    const doubtful: number[] = [];
    const seen = new Set<string>();
    for (const claim of claims) {
      const key = keyOf(claim.formId, claim.hash);
      const entry = this.entryOf(key);
      if (seen.has(key) || (entry && !entry.doubtful)) continue;
      seen.add(key);
      asked.push(claim);
      doubtful.push(entry ? 1 : 0);
    }
    if (asked.length === 0) return new Set();
    const askLog = doubtful.includes(1);
    const { rows } = await executeCached(
      trx,
      `address claims: append ${asked.length}${askLog ? ', asking the log' : ''}`,
      asked.flatMap((c, i) => [c.formId, c.hash, c.submissionId, c.createdAt, doubtful[i]]),
      (bound) => appendClaims(trx, bound, asked.length, askLog),
    );
    const won = new Set(rows.map(({ submission_id }) => submission_id));
    for (const claim of asked) {
      if (won.has(claim.submissionId))
        this.recent.set(keyOf(claim.formId, claim.hash), {
          submissionId: claim.submissionId,
          doubtful: false,
        });
    }
    return won;
  }

  /**
   * The claims of these submissions may have been undone with their transaction (it failed, or
   * rolled back their writes): until the log says otherwise, their addresses are doubtful.
   */
  doubt(claims: readonly AddressClaim[]): void {
    for (const claim of claims) this.doubtSubmission(keyOf(claim.formId, claim.hash), claim.submissionId);
  }

  /** Gives the addresses of these submissions back (a deleted response, a submission refused after its claim). */
  async release(trx: Trx, submissionIds: readonly string[]): Promise<void> {
    if (submissionIds.length === 0) return;
    await trx.deleteFrom('response_addresses').where('submission_id', 'in', submissionIds).execute();
    if (this.engine === 'postgres') return;
    await trx.deleteFrom('response_address_log').where('submission_id', 'in', submissionIds).execute();
    // doubtful, not dropped: should this transaction be rolled back, the log holds the claim again
    const released = new Set(submissionIds);
    for (const generation of [this.recent, ...this.sealed])
      for (const [key, entry] of generation)
        if (released.has(entry.submissionId)) this.doubtSubmission(key, entry.submissionId);
  }

  /**
   * A deleted form's claims (`deleteForm` took them out of both tables): doubtful, so that a form
   * given its id again (an id its owner chose) asks the log rather than this memory.
   */
  doubtForm(formId: string): void {
    const prefix = keyOf(formId, '');
    for (const generation of [this.recent, ...this.sealed])
      for (const [key, entry] of generation)
        if (key.startsWith(prefix)) this.doubtSubmission(key, entry.submissionId);
  }

  /**
   * SQLite: the whole merge, each of its transactions through the database's group commit: one
   * sorted statement while the indexed table is small, chunks of the oldest claims past
   * `CHUNKED_MERGE_PAST` rows, submissions written between them. A failure leaves what is not
   * moved in the log and its claims in memory: the next claims try again.
   */
  async mergeLog(database: Database): Promise<void> {
    // PostgreSQL claims in the indexed table itself: no log to merge
    if (this.engine !== 'sqlite') return;
    if (this.indexed < this.chunking.past) {
      this.forget(await database.transaction((trx) => this.merge(trx)));
      return;
    }
    const merge = await database.transaction((trx) => this.seal(trx));
    let moved: number;
    do moved = await database.transaction((trx) => this.moveOldest(trx, merge.lastRow));
    while (moved === this.chunking.chunk);
    this.forget(merge);
  }

  /**
   * SQLite: moves the log into `response_addresses`, sorted by its key, in the caller's
   * transaction. Hand the result to `forget` once that has committed.
   */
  async merge(trx: Trx): Promise<Merged> {
    const merge = await this.seal(trx);
    // PostgreSQL keeps no log to move
    if (this.engine === 'sqlite')
      await this.move(trx, sql`select rowid from response_address_log where rowid <= ${merge.lastRow}`);
    return merge;
  }

  /**
   * SQLite: seals the claims held in memory (claims from now on go to a new generation), and
   * notes the log's last row: what a merge moves.
   */
  async seal(trx: Trx): Promise<Merged> {
    // Every entry held now is either in the log, up to its last row read below, or not in it at
    // all: all of them are stale once the merge has moved those rows, the generations of an
    // earlier merge that failed too. Units of work never interleave on SQLite's one connection,
    // so no claim joins the log between these lines; claims after them go to a new generation,
    // in rows past the last, unless the newest rows are gone meanwhile (moved by a chunk,
    // released, their form deleted): SQLite then reuses rowids from the highest left, and a chunk
    // may move a newer claim early, into the index where it belongs all the same.
    const stale = [this.recent, ...this.sealed];
    this.sealed = stale;
    this.recent = new Map();
    // PostgreSQL keeps no log (and its tables no rowid)
    if (this.engine !== 'sqlite') return { stale, lastRow: 0 };
    const { last } = await trx
      .selectFrom('response_address_log')
      .select(sql<number | null>`max(rowid)`.as('last'))
      .executeTakeFirstOrThrow();
    return { stale, lastRow: Number(last ?? 0) };
  }

  /**
   * SQLite: moves the oldest claims of the log, up to its row `lastRow`, into
   * `response_addresses` (a chunk of them, sorted by the index's key) and out of the log, in the
   * caller's transaction. How many it moved: fewer than a chunk once the merge is done.
   */
  async moveOldest(trx: Trx, lastRow: number): Promise<number> {
    return this.move(
      trx,
      sql`select rowid from response_address_log where rowid <= ${lastRow}
        order by rowid limit ${this.chunking.chunk}`,
    );
  }

  /**
   * SQLite: moves the log's rows that `rowids` selects into `response_addresses`, sorted by its
   * key, and out of the log. How many left the log.
   */
  private async move(trx: Trx, rowids: RawBuilder<unknown>): Promise<number> {
    const moved = await sql`
      insert into response_addresses (form_id, address_hash, submission_id, created_at)
      select form_id, address_hash, submission_id, created_at from response_address_log
      where rowid in (${rowids}) order by form_id, address_hash
      on conflict do nothing`.execute(trx);
    const deleted = await sql`delete from response_address_log where rowid in (${rowids})`.execute(trx);
    this.indexed += Number(moved.numAffectedRows ?? 0);
    return Number(deleted.numAffectedRows ?? 0);
  }

  /**
   * After a merge committed: its generations leave memory (the indexed table answers for them
   * now). An entry replaced since (claimed again, made doubtful) is in a newer generation: kept.
   */
  forget(merged: Merged): void {
    this.sealed = this.sealed.filter((generation) => !merged.stale.includes(generation));
  }

  /** The newest entry of an address: a generation's entry hides those of older ones. */
  private entryOf(key: string): Entry | undefined {
    const entry = this.recent.get(key);
    if (entry || this.sealed.length === 0) return entry;
    for (const generation of this.sealed) {
      const sealed = generation.get(key);
      if (sealed) return sealed;
    }
    return undefined;
  }

  private doubtSubmission(key: string, submissionId: string): void {
    const entry = this.entryOf(key);
    if (entry?.submissionId === submissionId && !entry.doubtful)
      this.recent.set(key, { submissionId, doubtful: true });
  }
}

/**
 * The SQLite claim of `count` addresses (`bound`: five values each, the fifth 1 when the address
 * is doubtful): appends those taken by no stored claim, and names them. Run through executeCached,
 * built once per batch size: building it through Kysely's `sql` cost as much as running it
 * (measured: 309 µs a batch of 16, against 81 µs in better-sqlite3 alone).
 */
function appendClaims(
  trx: Trx,
  bound: readonly unknown[],
  count: number,
  askLog: boolean,
): Compilable<{ submission_id: string }> {
  const claims = Array.from({ length: count }, (_, i) => sql`(${sql.join(bound.slice(5 * i, 5 * i + 5))})`);
  // The log has no index: it is scanned only for the doubtful addresses of a batch (column5 = 1).
  const inLog = askLog
    ? sql` or (claim.column5 = 1 and exists (select 1 from response_address_log as logged
        where logged.form_id = claim.column1 and logged.address_hash = claim.column2))`
    : sql``;
  const statement = sql<{
    submission_id: string;
  }>`insert into response_address_log (form_id, address_hash, submission_id, created_at)
    select claim.column1, claim.column2, claim.column3, claim.column4
    from (values ${sql.join(claims)}) as claim
    where not (exists (select 1 from response_addresses as stored
      where stored.form_id = claim.column1 and stored.address_hash = claim.column2)${inLog})
    returning submission_id`;
  return { compile: () => statement.compile(trx) };
}

/** A claim's columns in `response_addresses`, in the order its values are given. */
export const CLAIM_COLUMNS = ['form_id', 'address_hash', 'submission_id', 'created_at'];

const books = new WeakMap<Database['db'], AddressBook>();

/**
 * The one address book of a database: every writer and deletion of one process shares it. Known
 * by the connection's Kysely instance, which a wrapper of the database (a test's) shares too.
 */
export function addressBookOf(database: Database): AddressBook {
  let book = books.get(database.db);
  if (!book) {
    book = new AddressBook(database.engine);
    books.set(database.db, book);
  }
  return book;
}
