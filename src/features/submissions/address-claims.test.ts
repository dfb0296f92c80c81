import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  isolatedStorage,
  startInstance,
  type TestApp,
  testConfig,
} from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { interceptQueries } from '../../../test/support/intercept.js';
import { seededRandom } from '../../../test/support/seeded-random.js';
import type { Database } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { AddressBook, type AddressClaim, addressBookOf, type Merged } from './address-claims.js';
import { type SubmissionWrite, SubmissionWriter } from './writer.js';

/**
 * `oncePer: "email"`'s claims (address-claims.ts): on SQLite appended to a log indexed in memory
 * and merged into the indexed table in bulk; on PostgreSQL taken in the indexed table itself.
 * Whatever happens to a claim (a merge, a restart, a failed transaction, a release), an address
 * is taken exactly when a claim of it was committed and not released.
 */

class Rollback extends Error {}

describe('address claims', () => {
  let t: TestApp;
  let owner: TestUser;
  let database: Database;
  let sqlite: boolean;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signup(t);
    database = t.app.intake.database;
    sqlite = database.engine === 'sqlite';
  });
  afterAll(async () => t.close());

  const newForm = async () => (await createForm(t, owner.token, { status: 'live' })).id;

  const claimOf = (formId: string, address: string): AddressClaim => ({
    formId,
    // the keyed hash of the real thing; any text of the same kind does here
    hash: `hash-of-${address}`,
    submissionId: newId('sub'),
    createdAt: nowIso(),
    refusal: () => new Error(`${address} has sent one`),
  });

  /** A submission write that only claims an address (its form keeps no copy). */
  const writeOf = (formId: string, address: string): SubmissionWrite => ({
    submission: undefined,
    quota: undefined,
    idempotency: undefined,
    outbox: [],
    event: undefined,
    address: claimOf(formId, address),
  });

  /** The addresses of `claims` the book took, in a committed transaction of their own. */
  const claim = async (book: AddressBook, claims: AddressClaim[]) => {
    const won = await database.transaction((trx) => book.claim(trx, claims));
    return claims.filter((one) => won.has(one.submissionId)).map((one) => one.hash);
  };

  const merge = async (book: AddressBook) =>
    book.forget(await database.transaction((trx) => book.merge(trx)));

  const stored = async (formId: string) => {
    const count = async (table: 'response_addresses' | 'response_address_log') =>
      (await database.db.selectFrom(table).select('address_hash').where('form_id', '=', formId).execute())
        .length;
    return { log: await count('response_address_log'), indexed: await count('response_addresses') };
  };

  const indexedHashes = async (formId: string) =>
    (
      await database.db
        .selectFrom('response_addresses')
        .select('address_hash')
        .where('form_id', '=', formId)
        .orderBy('address_hash')
        .execute()
    ).map((row) => row.address_hash);

  const freshBook = async (mergeAfter?: number, chunking?: { past: number; chunk: number }) => {
    const book = new AddressBook(database.engine, mergeAfter, chunking);
    await book.load(database);
    return book;
  };

  it('takes an address once: refused again in a later batch, and the second of one batch refused', async () => {
    const formId = await newForm();
    const book = await freshBook();
    const ada = claimOf(formId, 'ada');
    expect(await claim(book, [ada, claimOf(formId, 'grace')])).toEqual(['hash-of-ada', 'hash-of-grace']);
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual([]);
    const twice = [claimOf(formId, 'alan'), claimOf(formId, 'alan')];
    expect(await claim(book, twice)).toEqual(['hash-of-alan']);
    // one form's address is another form's to take as well
    expect(await claim(book, [claimOf(await newForm(), 'ada')])).toEqual(['hash-of-ada']);
    expect(await stored(formId)).toEqual(sqlite ? { log: 3, indexed: 0 } : { log: 0, indexed: 3 });
  });

  it('on SQLite keeps a claim in the log until a merge moves it to the indexed table: refused before, after and after a restart', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    const book = await freshBook();
    // the log holds what earlier tests claimed: the book, all of it
    const before = book.held;
    expect(await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'grace')])).toHaveLength(2);
    expect(await stored(formId)).toEqual({ log: 2, indexed: 0 });
    expect(book.held).toBe(before + 2);

    // a restarted process knows the log's claims from the log alone
    const restarted = await freshBook();
    expect(await claim(restarted, [claimOf(formId, 'ada')])).toEqual([]);

    await merge(book);
    expect(await stored(formId)).toEqual({ log: 0, indexed: 2 });
    expect(book.held).toBe(0);
    expect(await claim(book, [claimOf(formId, 'grace'), claimOf(formId, 'alan')])).toEqual(['hash-of-alan']);
    expect(await claim(await freshBook(), [claimOf(formId, 'ada')])).toEqual([]);
  });

  it('frees the address of a claim undone with its transaction once the writer doubts it', async () => {
    const formId = await newForm();
    const book = await freshBook();
    const ada = claimOf(formId, 'ada');
    await expect(
      database.transaction(async (trx) => {
        expect(await book.claim(trx, [ada])).toEqual(new Set([ada.submissionId]));
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    book.doubt([ada]);
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual(['hash-of-ada']);
    expect(await stored(formId)).toEqual(sqlite ? { log: 1, indexed: 0 } : { log: 0, indexed: 1 });
  });

  it('keeps the address of a doubted claim whose transaction did commit (the log is asked)', async () => {
    // how a commit whose WAL flush failed looks: stored, yet its writer was told it failed
    const formId = await newForm();
    const book = await freshBook();
    const ada = claimOf(formId, 'ada');
    expect(await claim(book, [ada])).toEqual(['hash-of-ada']);
    book.doubt([ada]);
    expect(await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'grace')])).toEqual(['hash-of-grace']);
  });

  it('on SQLite keeps an address claimed again between a merge’s commit and its forget', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    const book = await freshBook();
    const first = claimOf(formId, 'ada');
    await claim(book, [first]);
    book.doubt([first]);
    // the merge has committed (the address moved to the indexed table) but its flush is pending
    const merged = await database.transaction((trx) => book.merge(trx));
    await database.transaction((trx) => book.release(trx, [first.submissionId]));
    const second = claimOf(formId, 'ada');
    expect(await claim(book, [second])).toEqual(['hash-of-ada']);
    // the merge's forget must leave the newer claim, which is only in the log
    book.forget(merged);
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual([]);
    expect(await stored(formId)).toEqual({ log: 1, indexed: 0 });
  });

  it('on SQLite keeps the claims of a merge rolled back, and the next merge moves them with the newer ones', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    const book = await freshBook(2);
    // what earlier tests left in the log first: this test counts from an empty one
    await merge(book);
    await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'grace')]);
    expect(book.mergeDue).toBe(true);
    await expect(
      database.transaction(async (trx) => {
        await book.merge(trx);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    // still held, still due: the log holds them again
    expect(book.held).toBe(2);
    expect(book.mergeDue).toBe(true);
    expect(await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'alan')])).toEqual(['hash-of-alan']);
    expect(await stored(formId)).toEqual({ log: 3, indexed: 0 });
    await merge(book);
    expect(await stored(formId)).toEqual({ log: 0, indexed: 3 });
    expect(book.held).toBe(0);
    expect(await claim(book, [claimOf(formId, 'grace'), claimOf(formId, 'alan')])).toEqual([]);
  });

  it('on SQLite merges in chunks of the oldest claims once the indexed table is large; a chunk rolled back keeps its claims', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    // past 0 rows indexed: every merge goes in chunks, of 2 claims
    const book = await freshBook(3, { past: 0, chunk: 2 });
    // what earlier tests left in the log first: this test counts from an empty one
    await book.mergeLog(database);
    await claim(book, [claimOf(formId, 'grace')]);
    await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'alan')]);
    const merge = await database.transaction((trx) => book.seal(trx));
    // claimed after the merge began: the next merge's
    await claim(book, [claimOf(formId, 'edsger')]);
    expect(await database.transaction((trx) => book.moveOldest(trx, merge.lastRow))).toBe(2);
    // the oldest first: grace, then ada
    expect(await stored(formId)).toEqual({ log: 2, indexed: 2 });
    expect(await indexedHashes(formId)).toEqual(['hash-of-ada', 'hash-of-grace']);
    await expect(
      database.transaction(async (trx) => {
        await book.moveOldest(trx, merge.lastRow);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await stored(formId)).toEqual({ log: 2, indexed: 2 });
    // taken wherever they are: the index, the log, memory
    expect(
      await claim(
        book,
        ['ada', 'grace', 'alan', 'edsger', 'barbara'].map((name) => claimOf(formId, name)),
      ),
    ).toEqual(['hash-of-barbara']);
    expect(await database.transaction((trx) => book.moveOldest(trx, merge.lastRow))).toBe(1);
    expect(await indexedHashes(formId)).toEqual(['hash-of-ada', 'hash-of-alan', 'hash-of-grace']);
    book.forget(merge);
    // edsger and barbara came after the merge began: still in the log, still held
    expect(await stored(formId)).toEqual({ log: 2, indexed: 3 });
    expect(book.held).toBe(2);
    expect(await claim(book, [claimOf(formId, 'alan'), claimOf(formId, 'edsger')])).toEqual([]);
    await book.mergeLog(database);
    expect(await stored(formId)).toEqual({ log: 0, indexed: 5 });
    expect(book.held).toBe(0);
  });

  it('on SQLite the writer merges in chunks once the indexed table is large, submissions written between them', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    const book = await freshBook(4, { past: 0, chunk: 1 });
    await book.mergeLog(database);
    const writer = new SubmissionWriter(database, { addresses: book });
    await Promise.all(['a', 'b', 'c', 'd'].map((address) => writer.write(writeOf(formId, address))));
    // the merge's chunks and these submissions share the database's one connection
    await Promise.all(['e', 'f'].map((address) => writer.write(writeOf(formId, address))));
    await expect
      .poll(async () => (await stored(formId)).indexed, { timeout: 5000 })
      .toBeGreaterThanOrEqual(4);
    await expect(writer.write(writeOf(formId, 'a'))).rejects.toThrow('a has sent one');
    await expect(writer.write(writeOf(formId, 'e'))).rejects.toThrow('e has sent one');
    const { log, indexed } = await stored(formId);
    expect(log + indexed).toBe(6);
    // the merge's claims left memory once its last chunk committed: what is held is in the log
    await expect.poll(() => book.held, { timeout: 5000 }).toBe((await stored(formId)).log);
  });

  it('on SQLite merges in one statement until the indexed table is large, then in chunks', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    const empty = await freshBook();
    await empty.mergeLog(database);
    // what the table holds before this test, plus 3: past it, chunks of 1
    const { highest } = await database.db
      .selectFrom('response_addresses')
      .select(sql<number | null>`max(rowid)`.as('highest'))
      .executeTakeFirstOrThrow();
    const book = await freshBook(undefined, { past: Number(highest ?? 0) + 3, chunk: 1 });
    // the merge's transactions, counted
    let transactions = 0;
    const counted: Database = {
      ...database,
      transaction: (work) => {
        transactions++;
        return database.transaction(work);
      },
    };
    await claim(
      book,
      ['ada', 'grace'].map((name) => claimOf(formId, name)),
    );
    await book.mergeLog(counted);
    // one statement for both, and the table holds 2 more: not yet past
    expect(transactions).toBe(1);
    await claim(
      book,
      ['alan', 'edsger'].map((name) => claimOf(formId, name)),
    );
    await book.mergeLog(counted);
    expect(transactions).toBe(2);
    // 4 more now, past 3: the seal, a chunk for each claim and a last one that finds none
    await claim(
      book,
      ['barbara', 'donald'].map((name) => claimOf(formId, name)),
    );
    await book.mergeLog(counted);
    expect(transactions).toBe(2 + 1 + 3);
    expect(await stored(formId)).toEqual({ log: 0, indexed: 6 });
  });

  it('releases an address from the log and from the indexed table; a release rolled back keeps it', async () => {
    const formId = await newForm();
    const book = await freshBook();
    const ada = claimOf(formId, 'ada');
    const grace = claimOf(formId, 'grace');
    await claim(book, [ada]);
    await merge(book);
    await claim(book, [grace]);
    await expect(
      database.transaction(async (trx) => {
        await book.release(trx, [ada.submissionId, grace.submissionId]);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'grace')])).toEqual([]);

    await database.transaction((trx) => book.release(trx, [ada.submissionId, grace.submissionId]));
    expect(await stored(formId)).toEqual({ log: 0, indexed: 0 });
    expect(await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'grace')])).toEqual([
      'hash-of-ada',
      'hash-of-grace',
    ]);
  });

  it('on SQLite the writer merges the log once its book holds enough claims', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    const book = await freshBook(5);
    // what earlier tests left in the log first: this test counts from an empty one
    await merge(book);
    const writer = new SubmissionWriter(database, { addresses: book });
    const write = (address: string) => writeOf(formId, address);
    await Promise.all(['a', 'b', 'c', 'd'].map((address) => writer.write(write(address))));
    expect(await stored(formId)).toEqual({ log: 4, indexed: 0 });
    await writer.write(write('e'));
    // the merge is a transaction of its own after the commit that filled the book
    await expect.poll(async () => stored(formId), { timeout: 5000 }).toEqual({ log: 0, indexed: 5 });
    await expect.poll(() => book.held).toBe(0);
    await expect(writer.write(write('a'))).rejects.toThrow('a has sent one');
    await writer.write(write('g'));
  });

  it('frees the address of a submission whose batch failed after its claim, on the writer’s own path', async () => {
    const formId = await newForm();
    const writer = new SubmissionWriter(database, { addresses: await freshBook() });
    const address = claimOf(formId, 'ada');
    const broken: SubmissionWrite = {
      // a submission of no form: its INSERT breaks a foreign key after the address was claimed
      submission: {
        id: address.submissionId,
        workspaceId: owner.workspaceId,
        environment: 'development',
        formId: 'frm_none',
        formVersion: 1,
        answers: {},
        sessionId: null,
        language: 'en',
        status: 'accepted',
        read: false,
        starred: false,
        createdAt: address.createdAt,
      },
      quota: undefined,
      idempotency: undefined,
      outbox: [],
      event: undefined,
      address,
    };
    await expect(writer.write(broken)).rejects.toThrow();
    await writer.write(writeOf(formId, 'ada'));
    expect(await stored(formId)).toEqual(sqlite ? { log: 1, indexed: 0 } : { log: 0, indexed: 1 });
  });

  it('frees the address of a batch whose transaction failed after the batch’s own work succeeded', async () => {
    const formId = await newForm();
    const book = await freshBook();
    // a COMMIT that fails: the batch's unit ran to its end, then the transaction is rolled back
    // (and on PostgreSQL, where such a batch is one statement in autocommit, that statement fails)
    const failingCommit: Database = {
      ...database,
      transaction: (work) =>
        database.transaction(async (trx) => {
          await work(trx);
          throw new Error('commit failed');
        }),
      db: interceptQueries(database.db, () => {
        throw new Error('commit failed');
      }),
    };
    const write = (address: string) => writeOf(formId, address);
    await expect(
      new SubmissionWriter(failingCommit, { addresses: book }).write(write('ada')),
    ).rejects.toThrow('commit failed');
    await new SubmissionWriter(database, { addresses: book }).write(write('ada'));
    expect(await stored(formId)).toEqual(sqlite ? { log: 1, indexed: 0 } : { log: 0, indexed: 1 });
  });

  it('agrees with a set of taken addresses after random claims, releases, merges, failures and restarts', async () => {
    const next = seededRandom(20261127);
    const formId = await newForm();
    let book = await freshBook(undefined, { past: 0, chunk: 2 });
    /** SQLite: a merge committed whose forget is still to come (the writer's flush pending). */
    let merged: Merged | undefined;
    /** SQLite: a merge in chunks under way, one chunk a step, between the other steps. */
    let chunked: Merged | undefined;
    /** What is taken: address → the submission that holds it. */
    const taken = new Map<string, string>();
    const addresses = Array.from({ length: 12 }, (_, i) => `person${i}`);
    const pick = () => addresses[Math.floor(next() * addresses.length)] as string;
    const steps: string[] = [];
    for (let step = 0; step < 400; step++) {
      const roll = next();
      if (roll < 0.4) {
        const batch = Array.from({ length: 1 + Math.floor(next() * 3) }, () => claimOf(formId, pick()));
        steps.push(`claim ${batch.map((one) => one.hash).join(',')}`);
        const won = await claim(book, batch);
        const expected: string[] = [];
        for (const one of batch) {
          const address = one.hash.slice('hash-of-'.length);
          if (taken.has(address)) continue;
          taken.set(address, one.submissionId);
          expected.push(one.hash);
        }
        expect(won, steps.join('\n')).toEqual(expected);
      } else if (roll < 0.52) {
        const address = pick();
        const holder = taken.get(address);
        if (!holder) continue;
        steps.push(`release ${address}`);
        await database.transaction((trx) => book.release(trx, [holder]));
        taken.delete(address);
      } else if (roll < 0.62) {
        const batch = [claimOf(formId, pick())];
        steps.push(`failed claim ${batch[0]?.hash}`);
        await expect(
          database.transaction(async (trx) => {
            await book.claim(trx, batch);
            throw new Rollback();
          }),
        ).rejects.toBeInstanceOf(Rollback);
        book.doubt(batch);
      } else if (roll < 0.85) {
        if (!sqlite) continue;
        if (merged) {
          steps.push('forget the merge');
          book.forget(merged);
          merged = undefined;
        } else if (chunked) {
          const lastRow = chunked.lastRow;
          steps.push('merge a chunk');
          const moved = await database.transaction((trx) => book.moveOldest(trx, lastRow));
          if (moved < book.mergeChunk) {
            book.forget(chunked);
            chunked = undefined;
          }
        } else if (next() < 0.3) {
          steps.push('begin a merge in chunks');
          chunked = await database.transaction((trx) => book.seal(trx));
        } else if (next() < 0.2) {
          steps.push('failed merge');
          await expect(
            database.transaction(async (trx) => {
              await book.merge(trx);
              throw new Rollback();
            }),
          ).rejects.toBeInstanceOf(Rollback);
        } else {
          steps.push('merge');
          merged = await database.transaction((trx) => book.merge(trx));
        }
      } else if (roll < 0.89) {
        steps.push('restart');
        merged = undefined;
        chunked = undefined;
        book = await freshBook(undefined, { past: 0, chunk: 2 });
      } else {
        const address = pick();
        const holder = taken.get(address);
        if (!holder) continue;
        steps.push(`failed release ${address}`);
        await expect(
          database.transaction(async (trx) => {
            await book.release(trx, [holder]);
            throw new Rollback();
          }),
        ).rejects.toBeInstanceOf(Rollback);
      }
    }
    // every address answers as the set says
    const finals = addresses.map((address) => claimOf(formId, address));
    const won = await claim(book, finals);
    expect(won.sort(), steps.join('\n')).toEqual(
      addresses
        .filter((address) => !taken.has(address))
        .map((address) => `hash-of-${address}`)
        .sort(),
    );
    const { log, indexed } = await stored(formId);
    expect(log + indexed).toBe(addresses.length);
  });
});

describe('the address log after a restart', () => {
  it('is read by the first batch that claims, not at start, and still refuses what it holds', async () => {
    const { storage, drop } = await isolatedStorage();
    const config = testConfig(storage);
    const start = () => startInstance(config);
    const submit = (t: TestApp, formId: string, email: string) =>
      t.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        body: { answers: { name: 'Ada', email } },
      });
    try {
      const first = await start();
      const owner = await signup(first);
      const form = await createForm(first, owner.token, {
        status: 'live',
        access: { oncePer: 'email', emailField: 'email' },
      });
      expect((await submit(first, form.id, 'ada@example.com')).status).toBe(201);
      expect((await submit(first, form.id, 'grace@example.com')).status).toBe(201);
      await first.close();

      const second = await start();
      try {
        const book = addressBookOf(second.app.intake.database);
        expect(book.held, 'nothing read at start').toBe(0);
        const again = await submit(second, form.id, 'Ada@Example.com');
        expect(again.status, again.text).toBe(409);
        expect(again.body.code).toBe('already_submitted');
        expect((await submit(second, form.id, 'alan@example.com')).status).toBe(201);
        // SQLite: the log's claims, read before that batch claimed (PostgreSQL keeps none in memory)
        if (second.app.intake.database.engine === 'sqlite') expect(book.held).toBe(3);
      } finally {
        await second.close();
      }
    } finally {
      await drop();
    }
  });
});
