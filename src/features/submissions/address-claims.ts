import { setImmediate } from 'node:timers/promises';
import { type Insertable, sql } from 'kysely';
import { executeCached } from '../../platform/db/cached-statement.js';
import type { Database, Trx } from '../../platform/db/database.js';
import type { Engine } from '../../platform/db/dialect.js';
import { boundRows } from '../../platform/db/insert.js';
import type { Schema } from '../../platform/db/schema.js';
import { ClaimSet } from './claim-set.js';

/**
 * `oncePer: "email"` (API.md §15): each address a form took a submission from, as its keyed hash,
 * claimed in the submission's own transaction, so that of two submissions from one address only
 * one is ever stored, however they race.
 *
 * PostgreSQL claims in `response_addresses` itself: its unique index is what tells concurrent
 * instances apart. On SQLite this process is the only writer (the database is locked to it), which
 * allows a cheaper claim. Written into a unique index, each claim dirtied a random leaf page of it
 * (the hashes are random): more WAL to write and flush per batch, and more checkpoints; moved there
 * in bulk later, the merges cost as much again (docs/decisions.md has the figures). So on SQLite
 * a claim is appended to `response_address_log`, keyed (form, submission, address) so that it
 * grows at each form's end like the submissions' indexes (submission ids are in time order), and
 * never moved; and this process holds every address of each form it claims for in memory
 * (`ClaimSet`, 32–64 bytes an address), read from both tables the first time a batch claims for
 * that form (`response_addresses` holds what earlier versions merged). An address is free when
 * memory says so: nothing is looked up on the way.
 *
 * The tables are the truth, memory their index. A claim that may not have stayed in the tables
 * (its transaction failed, it was released by a transaction that may yet be undone) makes its
 * address doubtful: memory keeps every submission that may hold the address from then on (those
 * that claimed it, those released from it), and the next claim of that address asks the tables
 * whether any of them holds it, by the tables' keys. None is dropped while the process runs (but a
 * claim released in the unit that made it, which can never be stored after it): a claim that finds
 * the address free may itself be undone with a release before it in the same transaction, which
 * would put an earlier holder back. So memory never answers "free" for an
 * address the tables hold. It can answer "taken" for a claim just undone, until its writer hears
 * of the failure and doubts it: a refusal too many for a moment, never a second submission stored.
 */

export interface AddressClaim {
  formId: string;
  hash: string;
  submissionId: string;
  createdAt: string;
  /** The refusal when the address has sent one already (409 already_submitted). */
  refusal: () => unknown;
  /** Set by the claim: whether this submission took the address (what a failure then puts in doubt). */
  took?: boolean;
}

/** Claims read a statement when a form's claims are loaded: a large form is read a slice at a time. */
export const LOAD_SLICE = 10_000;

/** A claim as a form's read into memory sees it. */
interface ClaimRow {
  address_hash: string;
  submission_id: string;
}

/** A submission that may hold an address of its form. */
export interface Held {
  formId: string;
  submissionId: string;
}

/** SQLite: one form's claims in memory. */
interface FormClaims {
  taken: ClaimSet;
  /** Address → the submissions that may hold it (claimed or released it since it was first doubted): ask the tables. */
  doubtful: Map<string, Set<string>>;
}

/** SQLite: a form whose claims are being read, and what happened to them meanwhile. */
interface Loading {
  done: Promise<void>;
  /** Doubted while the read was under way: applied when it ends. */
  doubted: Map<string, Set<string>>;
  /** The form was deleted meanwhile: what was read is not kept. */
  dropped: boolean;
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
  /** SQLite: the claims of each form read so far. */
  private readonly forms = new Map<string, FormClaims>();
  private readonly loading = new Map<string, Loading>();

  constructor(
    private readonly engine: Engine,
    /** Rows a read of a form's claims takes at most (tests make it small). */
    private readonly loadSlice = LOAD_SLICE,
  ) {}

  /** Addresses held in memory (tests). */
  get held(): number {
    let held = 0;
    for (const form of this.forms.values()) held += form.taken.size;
    return held;
  }

  /** SQLite: how many submissions may hold an address, when it is doubtful (tests). */
  holdersOf(formId: string, hash: string): number | undefined {
    return this.forms.get(formId)?.doubtful.get(hash)?.size;
  }

  /**
   * SQLite: reads the claims of these forms into memory, outside any transaction, before a batch
   * claims for them: the writer does it before each batch that claims (writer.ts), so a process
   * holds only the forms it has taken `oncePer` submissions for since it started. Read inside a
   * transaction, it could see a release that is then undone with it.
   */
  async load(database: Database, formIds: readonly string[]): Promise<void> {
    if (this.engine !== 'sqlite') return;
    const waits: Promise<void>[] = [];
    for (const formId of formIds) {
      if (this.forms.has(formId)) continue;
      let loading = this.loading.get(formId);
      if (!loading) {
        const started: Loading = { done: Promise.resolve(), doubted: new Map(), dropped: false };
        started.done = this.read(database, formId, started).finally(() => this.loading.delete(formId));
        this.loading.set(formId, started);
        loading = started;
      }
      waits.push(loading.done);
    }
    await Promise.all(waits);
  }

  /**
   * One form's claims from both tables, a slice at a time: a release between two slices is told
   * to `loading` (`doubtHeld`), so what a slice missed or read too early is asked of the tables.
   */
  private async read(database: Database, formId: string, loading: Loading): Promise<void> {
    const taken = new ClaimSet();
    const read = (rows: readonly ClaimRow[]) => {
      for (const row of rows) {
        taken.add(row.address_hash);
        // doubted meanwhile: whoever the read finds holding it may hold it still
        loading.doubted.get(row.address_hash)?.add(row.submission_id);
      }
    };
    // each table in its key's order: the unique table's (form, address), the log's (form, submission, address)
    await this.inSlices(read, (last) =>
      database.db
        .selectFrom('response_addresses')
        .select(['address_hash', 'submission_id'])
        .where('form_id', '=', formId)
        .where('address_hash', '>', last?.address_hash ?? '')
        .orderBy('address_hash')
        .limit(this.loadSlice)
        .execute(),
    );
    await this.inSlices(read, (last) =>
      database.db
        .selectFrom('response_address_log')
        .select(['address_hash', 'submission_id'])
        .where('form_id', '=', formId)
        .where(
          sql<boolean>`(submission_id, address_hash) > (${last?.submission_id ?? ''}, ${last?.address_hash ?? ''})`,
        )
        .orderBy('submission_id')
        .orderBy('address_hash')
        .limit(this.loadSlice)
        .execute(),
    );
    if (loading.dropped) return;
    this.forms.set(formId, { taken, doubtful: loading.doubted });
  }

  /** Reads `slice` after `slice` (each from the last row of the one before) until one comes short, other work let in between. */
  private async inSlices(
    read: (rows: readonly ClaimRow[]) => void,
    slice: (last: ClaimRow | undefined) => Promise<ClaimRow[]>,
  ): Promise<void> {
    let last: ClaimRow | undefined;
    for (;;) {
      const rows = await slice(last);
      read(rows);
      last = rows.at(-1);
      if (!last || rows.length < this.loadSlice) return;
      await setImmediate();
    }
  }

  /**
   * Claims each address for its form, in one statement for a batch; a claim finding its address
   * taken (by an earlier submission, a concurrent transaction that committed first, or an earlier
   * claim of this batch) takes nothing. The submission ids whose claim was taken.
   */
  async claim(trx: Trx, claims: readonly AddressClaim[]): Promise<Set<string>> {
    for (const claim of claims) claim.took = false;
    if (claims.length === 0) return new Set();
    const won =
      this.engine === 'postgres' ? await claimIndexed(trx, claims) : await this.claimLogged(trx, claims);
    for (const claim of claims) if (won.has(claim.submissionId)) claim.took = true;
    return won;
  }

  /**
   * SQLite: appends the claims memory calls free, and those doubtful ones the tables do not hold
   * (asked one by one: a rare path).
   */
  private async claimLogged(trx: Trx, claims: readonly AddressClaim[]): Promise<Set<string>> {
    const won: AddressClaim[] = [];
    const seen = new Set<string>();
    for (const claim of claims) {
      const key = keyOf(claim.formId, claim.hash);
      if (seen.has(key)) continue;
      seen.add(key);
      const form = this.forms.get(claim.formId);
      const holders = form?.doubtful.get(claim.hash);
      if (form && !holders && form.taken.has(claim.hash)) continue;
      // a doubtful address, or a form not in memory (deleted meanwhile: its claims went with it)
      if ((!form || (holders && holders.size > 0)) && (await heldInTables(trx, claim, holders))) {
        form?.taken.add(claim.hash);
        continue;
      }
      won.push(claim);
    }
    if (won.length === 0) return new Set();
    const values = won.flatMap((claim) => [claim.formId, claim.hash, claim.submissionId, claim.createdAt]);
    await executeCached(trx, `address claims: append ${won.length}`, values, (bound) =>
      trx
        .insertInto('response_address_log')
        .values(boundRows(bound, CLAIM_COLUMNS) as Insertable<Schema['response_address_log']>[]),
    );
    for (const claim of won) {
      const form = this.forms.get(claim.formId);
      if (form) {
        form.taken.add(claim.hash);
        // still doubtful: this claim may yet be undone with a release before it
        form.doubtful.get(claim.hash)?.add(claim.submissionId);
      } else this.noteWhileLoading(claim.formId, claim.hash, claim.submissionId);
    }
    return new Set(won.map((claim) => claim.submissionId));
  }

  /**
   * The claims of these submissions may have been undone with their transaction (it failed, or
   * rolled back their writes): until the tables say otherwise, the addresses they took are doubtful.
   */
  doubt(claims: readonly AddressClaim[]): void {
    for (const claim of claims) if (claim.took) this.doubtHeld(claim.formId, claim.hash, claim.submissionId);
  }

  /**
   * Gives the addresses of these submissions back (a deleted response, a submission refused after
   * its claim). `sameUnit`: claims this unit of work made itself (the writer's refusals), undone or
   * kept with their release, so never in the tables after it: their submissions are dropped from
   * the address's possible holders rather than added (a refused submission sent again and again
   * would otherwise grow the set without end).
   */
  async release(trx: Trx, submissions: readonly Held[], sameUnit = false): Promise<void> {
    if (submissions.length === 0) return;
    // nothing of theirs left to doubt should the unit fail after all
    if (sameUnit) for (const held of submissions) if ('took' in held) held.took = false;
    const columns = ['form_id', 'address_hash', 'submission_id'] as const;
    const released = await trx
      .deleteFrom('response_addresses')
      .where(
        'submission_id',
        'in',
        submissions.map((held) => held.submissionId),
      )
      .returning(columns)
      .execute();
    if (this.engine === 'postgres') return;
    // by the log's key (form, submission, address)
    for (const [formId, ids] of groupedByForm(submissions))
      released.push(
        ...(await trx
          .deleteFrom('response_address_log')
          .where('form_id', '=', formId)
          .where('submission_id', 'in', ids)
          .returning(columns)
          .execute()),
      );
    for (const row of released) {
      if (sameUnit) this.forgetHolder(row.form_id, row.address_hash, row.submission_id);
      // doubtful, not dropped: should this transaction be rolled back, the tables hold the claim again
      else this.doubtHeld(row.form_id, row.address_hash, row.submission_id);
    }
  }

  /**
   * A deleted form's claims (`deleteForm` took them out of both tables) leave memory: a form given
   * its id again (an id its owner chose) reads its own.
   */
  doubtForm(formId: string): void {
    this.forms.delete(formId);
    const loading = this.loading.get(formId);
    if (loading) loading.dropped = true;
  }

  /** A claim undone within its own unit: the address is as free as before it, and this submission holds nothing. */
  private forgetHolder(formId: string, hash: string, submissionId: string): void {
    const form = this.forms.get(formId);
    const doubtful = form?.doubtful ?? this.loading.get(formId)?.doubted;
    if (!doubtful) return;
    const holders = doubtful.get(hash);
    if (holders) holders.delete(submissionId);
    // taken in memory (a ClaimSet forgets nothing): doubtful with no possible holder, so free
    else if (form) doubtful.set(hash, new Set());
  }

  private doubtHeld(formId: string, hash: string, submissionId: string): void {
    const form = this.forms.get(formId);
    if (!form) {
      this.noteWhileLoading(formId, hash, submissionId);
      return;
    }
    const holders = form.doubtful.get(hash);
    if (holders) holders.add(submissionId);
    else form.doubtful.set(hash, new Set([submissionId]));
  }

  /** A claim or a release of a form being read: doubtful once the read has ended. */
  private noteWhileLoading(formId: string, hash: string, submissionId: string): void {
    const doubted = this.loading.get(formId)?.doubted;
    if (!doubted) return;
    const holders = doubted.get(hash);
    if (holders) holders.add(submissionId);
    else doubted.set(hash, new Set([submissionId]));
  }
}

/** PostgreSQL: claims straight into the unique index, which decides between instances. */
async function claimIndexed(trx: Trx, claims: readonly AddressClaim[]): Promise<Set<string>> {
  const ordered = inClaimOrder(claims);
  const values = ordered.flatMap((claim) => [claim.formId, claim.hash, claim.submissionId, claim.createdAt]);
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

/**
 * SQLite: whether the tables hold the claim's address for its form: by one of `holders` (the log's
 * key; the unique table's primary key, the address, with the holder), or, without them (a form not
 * in memory), by any submission, which reads that form's rows of the log. The holders are bound as
 * one JSON array: however many, one statement text and one bound value.
 */
async function heldInTables(
  trx: Trx,
  claim: AddressClaim,
  holders: ReadonlySet<string> | undefined,
): Promise<boolean> {
  const ids = holders ? JSON.stringify([...holders]) : undefined;
  const logged = trx
    .selectFrom('response_address_log')
    .select(sql<number>`1`.as('held'))
    .where('form_id', '=', claim.formId)
    .where('address_hash', '=', claim.hash);
  const indexed = trx
    .selectFrom('response_addresses')
    .select(sql<number>`1`.as('held'))
    .where('form_id', '=', claim.formId)
    .where('address_hash', '=', claim.hash);
  const among = sql<boolean>`submission_id in (select value from json_each(${ids}))`;
  const row = await (ids ? logged.where(among) : logged)
    .unionAll(ids ? indexed.where(among) : indexed)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

function groupedByForm(submissions: readonly Held[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { formId, submissionId } of submissions) {
    const group = groups.get(formId);
    if (group) group.push(submissionId);
    else groups.set(formId, [submissionId]);
  }
  return groups;
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
