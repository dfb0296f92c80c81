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
import { AddressBook, type AddressClaim, addressBookOf } from './address-claims.js';
import { type SubmissionWrite, SubmissionWriter } from './writer.js';

/**
 * `oncePer: "email"`'s claims (address-claims.ts): on SQLite appended to a log, every claimed
 * form's addresses held in memory; on PostgreSQL taken in the indexed table itself. Whatever
 * happens to a claim (a restart, a failed transaction, a release, a form's memory dropped), an
 * address is taken exactly when a claim of it was committed and not released.
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
    // as the writer does: the forms' claims read first, outside the transaction
    await book.load(
      database,
      claims.map((one) => one.formId),
    );
    const won = await database.transaction((trx) => book.claim(trx, claims));
    return claims.filter((one) => won.has(one.submissionId)).map((one) => one.hash);
  };

  const stored = async (formId: string) => {
    const count = async (table: 'response_addresses' | 'response_address_log') =>
      (await database.db.selectFrom(table).select('address_hash').where('form_id', '=', formId).execute())
        .length;
    return { log: await count('response_address_log'), indexed: await count('response_addresses') };
  };

  /** A claim an earlier version merged into the indexed table (SQLite's log kept every claim since). */
  const indexedByHand = async (one: AddressClaim) =>
    database.db
      .insertInto('response_addresses')
      .values({
        form_id: one.formId,
        address_hash: one.hash,
        submission_id: one.submissionId,
        created_at: one.createdAt,
      })
      .execute();

  const freshBook = (loadSlice?: number) => new AddressBook(database.engine, loadSlice);

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

  it('on SQLite keeps every claim in the log and reads a form’s claims, in slices, from both tables the first time it claims for it', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    // what an earlier version merged into the indexed table
    await indexedByHand(claimOf(formId, 'barbara'));
    await indexedByHand(claimOf(formId, 'donald'));
    const book = freshBook(2);
    expect(book.held, 'nothing read before the first claim').toBe(0);
    expect(
      await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'grace'), claimOf(formId, 'alan')]),
    ).toEqual(['hash-of-ada', 'hash-of-grace', 'hash-of-alan']);
    expect(await stored(formId)).toEqual({ log: 3, indexed: 2 });
    expect(book.held).toBe(5);

    // a restarted process knows them from the tables alone, read two rows a statement (so in
    // slices: 2 + 0 of the indexed table, 2 + 1 of the log), the form named twice read once
    const restarted = freshBook(2);
    await restarted.load(database, [formId, formId]);
    expect(restarted.held).toBe(5);
    expect(
      await claim(
        restarted,
        ['ada', 'grace', 'alan', 'barbara', 'donald', 'edsger'].map((name) => claimOf(formId, name)),
      ),
    ).toEqual(['hash-of-edsger']);
    // another form's claims are not read with it
    const other = await newForm();
    expect(await claim(restarted, [claimOf(other, 'ada')])).toEqual(['hash-of-ada']);
    expect(restarted.held).toBe(7);
  });

  it('keeps the address taken when a claim that took nothing is doubted', async () => {
    const formId = await newForm();
    const book = freshBook();
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual(['hash-of-ada']);
    // a second claim of ada, refused, in a transaction that then fails: it took nothing to doubt
    const again = claimOf(formId, 'ada');
    await expect(
      database.transaction(async (trx) => {
        expect(await book.claim(trx, [again])).toEqual(new Set());
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    book.doubt([again]);
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual([]);
    expect(await stored(formId)).toEqual(sqlite ? { log: 1, indexed: 0 } : { log: 0, indexed: 1 });
  });

  it('on SQLite asks the tables for a form whose memory was dropped (its form deleted) until it is read again', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    const book = freshBook();
    await claim(book, [claimOf(formId, 'ada')]);
    book.doubtForm(formId);
    expect(book.held).toBe(0);
    // claimed in a transaction of its own, without a load: the tables are asked by address
    const grace = claimOf(formId, 'grace');
    const won = await database.transaction((trx) =>
      book.claim(trx, [claimOf(formId, 'ada'), grace, claimOf(formId, 'grace')]),
    );
    expect(won).toEqual(new Set([grace.submissionId]));
    // read again with its next claim: both held
    expect(await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'grace')])).toEqual([]);
    expect(book.held).toBe(2);
  });

  it('on SQLite a release while a form’s claims are being read is asked of the tables after', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    const names = ['ada', 'grace', 'alan', 'edsger'];
    const claims = names.map((name) => claimOf(formId, name));
    await claim(freshBook(), claims);
    // ada's claim is the first the log gives (the oldest submission): read before the release runs
    for (const undone of [true, false]) {
      // one row a read, other work let in between two: the release runs between the reads
      const book = freshBook(1);
      const loading = book.load(database, [formId]);
      const released = database.transaction(async (trx) => {
        await book.release(trx, [claims[0] as AddressClaim]);
        if (undone) throw new Rollback();
      });
      await Promise.all([loading, released.catch((error) => expect(error).toBeInstanceOf(Rollback))]);
      expect(await claim(book, [claimOf(formId, 'ada')])).toEqual(undone ? [] : ['hash-of-ada']);
    }
    // the claim that took it is what the tables hold now, beside the three others
    expect(await stored(formId)).toEqual({ log: 4, indexed: 0 });
  });

  it('keeps an address whose claim failed in one unit of a group commit and was taken by the next, doubted twice', async () => {
    // the writer doubts a failed batch's claims in the unit's own catch and again after the
    // transaction: between the two, another unit of the same transaction may take the address
    const formId = await newForm();
    const book = freshBook();
    await book.load(database, [formId]);
    const first = claimOf(formId, 'ada');
    const second = claimOf(formId, 'ada');
    const units = await Promise.allSettled([
      database.transaction(async (trx) => {
        try {
          expect(await book.claim(trx, [first])).toEqual(new Set([first.submissionId]));
          throw new Rollback();
        } catch (error) {
          book.doubt([first]);
          throw error;
        }
      }),
      database.transaction((trx) => book.claim(trx, [second])),
    ]);
    expect(units[0].status).toBe('rejected');
    expect(units[1]).toEqual({ status: 'fulfilled', value: new Set([second.submissionId]) });
    book.doubt([first]);
    // the first submission tried again alone, and anyone else: the second holds the address
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual([]);
    const retried = { ...first };
    expect(await database.transaction((trx) => book.claim(trx, [retried]))).toEqual(new Set());
    expect(await stored(formId)).toEqual(sqlite ? { log: 1, indexed: 0 } : { log: 0, indexed: 1 });
  });

  it('keeps an address released and claimed again in one transaction that is then undone', async () => {
    const formId = await newForm();
    const book = freshBook();
    const holder = claimOf(formId, 'ada');
    expect(await claim(book, [holder])).toEqual(['hash-of-ada']);
    // a response deleted, then its address claimed again, in a transaction whose COMMIT fails
    const again = claimOf(formId, 'ada');
    await expect(
      database.transaction(async (trx) => {
        await book.release(trx, [holder]);
        expect(await book.claim(trx, [again])).toEqual(new Set([again.submissionId]));
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    book.doubt([again]);
    // the first claim is stored again: the address stays taken
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual([]);
    expect(await stored(formId)).toEqual(sqlite ? { log: 1, indexed: 0 } : { log: 0, indexed: 1 });
  });

  it('a claim made and released in one unit (a refusal after the claim) leaves the address free and holds nothing, however often', async () => {
    const formId = await newForm();
    const book = freshBook();
    await claim(book, [claimOf(formId, 'ada')]);
    const holder = (
      await database.db
        .selectFrom(sqlite ? 'response_address_log' : 'response_addresses')
        .select('submission_id')
        .where('form_id', '=', formId)
        .executeTakeFirstOrThrow()
    ).submission_id;
    // ada's response deleted: her address doubtful, her submission its one possible holder
    await database.transaction((trx) => book.release(trx, [{ formId, submissionId: holder }]));
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = claimOf(formId, 'ada');
      await database.transaction(async (trx) => {
        expect(await book.claim(trx, [refused])).toEqual(new Set([refused.submissionId]));
        await book.release(trx, [refused], true);
      });
      expect(refused.took).toBe(false);
      // the unit went on and failed after all: nothing of it to doubt
      book.doubt([refused]);
    }
    expect(await stored(formId)).toEqual({ log: 0, indexed: 0 });
    // ada's first submission the one possible holder still (PostgreSQL keeps no such memory)
    expect(book.holdersOf(formId, 'hash-of-ada')).toBe(sqlite ? 1 : undefined);
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual(['hash-of-ada']);
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual([]);
  });

  it('on SQLite asks about any number of possible holders in one statement', async () => {
    if (!sqlite) return;
    const formId = await newForm();
    const book = freshBook();
    const ada = claimOf(formId, 'ada');
    await claim(book, [ada]);
    // 20,000 claims of ada that failed after taking it (more than SQLite binds values to a statement)
    book.doubt(Array.from({ length: 20_000 }, () => ({ ...claimOf(formId, 'ada'), took: true })));
    // ada's own claim, among them too, is stored: taken
    book.doubt([ada]);
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual([]);
    await database.transaction((trx) => book.release(trx, [ada]));
    expect(await claim(book, [claimOf(formId, 'ada')])).toEqual(['hash-of-ada']);
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

  it('releases an address from the log and from the indexed table; a release rolled back keeps it', async () => {
    const formId = await newForm();
    const book = await freshBook();
    const ada = claimOf(formId, 'ada');
    const grace = claimOf(formId, 'grace');
    // ada as an earlier version left it on SQLite: merged into the indexed table
    if (sqlite) await indexedByHand(ada);
    else await claim(book, [ada]);
    await claim(book, [grace]);
    await expect(
      database.transaction(async (trx) => {
        await book.release(trx, [ada, grace]);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'grace')])).toEqual([]);

    await database.transaction((trx) => book.release(trx, [ada, grace]));
    expect(await stored(formId)).toEqual({ log: 0, indexed: 0 });
    expect(await claim(book, [claimOf(formId, 'ada'), claimOf(formId, 'grace')])).toEqual([
      'hash-of-ada',
      'hash-of-grace',
    ]);
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

  it('agrees with a set of taken addresses after random claims, releases, failures, forms dropped from memory and restarts', async () => {
    const next = seededRandom(20261127);
    const formId = await newForm();
    // two rows a read: a form's claims are read in slices, other work between them
    let book = freshBook(2);
    /** What is taken: address → the submission that holds it. */
    const taken = new Map<string, string>();
    const addresses = Array.from({ length: 12 }, (_, i) => `person${i}`);
    const pick = () => addresses[Math.floor(next() * addresses.length)] as string;
    const steps: string[] = [];
    /** The claims of `batch` the set says are won, taken in it. */
    const expectedOf = (batch: AddressClaim[]) => {
      const expected: string[] = [];
      for (const one of batch) {
        const address = one.hash.slice('hash-of-'.length);
        if (taken.has(address)) continue;
        taken.set(address, one.submissionId);
        expected.push(one.hash);
      }
      return expected;
    };
    for (let step = 0; step < 500; step++) {
      const roll = next();
      if (roll < 0.35) {
        const batch = Array.from({ length: 1 + Math.floor(next() * 3) }, () => claimOf(formId, pick()));
        steps.push(`claim ${batch.map((one) => one.hash).join(',')}`);
        const won = await claim(book, batch);
        expect(won, steps.join('\n')).toEqual(expectedOf(batch));
      } else if (roll < 0.47) {
        const address = pick();
        const holder = taken.get(address);
        if (!holder) continue;
        steps.push(`release ${address}`);
        await database.transaction((trx) => book.release(trx, [{ formId, submissionId: holder }]));
        taken.delete(address);
      } else if (roll < 0.57) {
        const batch = [claimOf(formId, pick())];
        steps.push(`failed claim ${batch[0]?.hash}`);
        await expect(
          database.transaction(async (trx) => {
            await book.claim(trx, batch);
            throw new Rollback();
          }),
        ).rejects.toBeInstanceOf(Rollback);
        book.doubt(batch);
      } else if (roll < 0.65) {
        // a commit whose writer was told it failed (a WAL flush that failed): stored, yet doubted
        const batch = [claimOf(formId, pick())];
        steps.push(`claim doubted after its commit ${batch[0]?.hash}`);
        const won = await claim(book, batch);
        expect(won, steps.join('\n')).toEqual(expectedOf(batch));
        book.doubt(batch);
      } else if (roll < 0.73) {
        steps.push('form dropped from memory');
        book.doubtForm(formId);
        if (next() < 0.5) {
          // a batch that claims before the form is read again: the tables asked by address
          const batch = [claimOf(formId, pick())];
          steps.push(`claim without memory ${batch[0]?.hash}`);
          const won = await database.transaction((trx) => book.claim(trx, batch));
          expect(
            batch.filter((one) => won.has(one.submissionId)).map((one) => one.hash),
            steps.join('\n'),
          ).toEqual(expectedOf(batch));
        }
      } else if (roll < 0.8) {
        steps.push('restart');
        book = freshBook(2);
      } else if (roll < 0.86) {
        if (!sqlite) continue;
        // as an earlier version left a claim: merged from the log into the indexed table
        const holder = taken.get(pick());
        if (!holder) continue;
        steps.push(`merged by an earlier version ${holder}`);
        await database.transaction(async (trx) => {
          await sql`insert into response_addresses (form_id, address_hash, submission_id, created_at)
            select form_id, address_hash, submission_id, created_at from response_address_log
            where submission_id = ${holder}`.execute(trx);
          await trx.deleteFrom('response_address_log').where('submission_id', '=', holder).execute();
        });
      } else {
        const address = pick();
        const holder = taken.get(address);
        if (!holder) continue;
        steps.push(`failed release ${address}`);
        await expect(
          database.transaction(async (trx) => {
            await book.release(trx, [{ formId, submissionId: holder }]);
            throw new Rollback();
          }),
        ).rejects.toBeInstanceOf(Rollback);
      }
    }
    // every address answers as the set says: to a restarted book (in a transaction undone after),
    // and to this one
    const free = addresses
      .filter((address) => !taken.has(address))
      .map((address) => `hash-of-${address}`)
      .sort();
    const restarted = freshBook(2);
    await restarted.load(database, [formId]);
    const probes = addresses.map((address) => claimOf(formId, address));
    await expect(
      database.transaction(async (trx) => {
        const won = await restarted.claim(trx, probes);
        expect(
          probes
            .filter((one) => won.has(one.submissionId))
            .map((one) => one.hash)
            .sort(),
        ).toEqual(free);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    const won = await claim(
      book,
      addresses.map((address) => claimOf(formId, address)),
    );
    expect(won.sort(), steps.join('\n')).toEqual(free);
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
