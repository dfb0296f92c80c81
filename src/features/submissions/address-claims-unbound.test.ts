import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import type { Db } from '../../platform/db/database.js';
import * as m022 from '../../platform/db/migrations/022-address-claims-unbound.js';
import * as m023 from '../../platform/db/migrations/023-address-log-kept.js';
import { runRetention } from './retention.js';

/**
 * The claims of `oncePer: "email"` have no foreign key to `forms` (migration 022, for the submit
 * path's speed): a form's claims still go with the form, the retention job sweeps those a race
 * leaves behind, and the migration keeps every claim, both ways, on both engines.
 */

/** Migration 022 undone and done again, as on a database at that version: 023, which builds the log again after it, undone first and done again last. */
const down = async (db: Kysely<unknown>) => {
  await m023.down(db);
  await m022.down(db);
};
const up = async (db: Kysely<unknown>) => {
  await m022.up(db);
  await m023.up(db);
};

describe('address claims without a key to their form', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitPublic: 1_000_000 });
    owner = await signup(t);
  });
  afterAll(() => t.close());

  const db = (): Db => t.app.intake.database.db;
  const sqlite = () => t.app.intake.database.engine === 'sqlite';

  const onceForm = () =>
    createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'email', type: 'email', label: 'E-mail', required: true }],
      access: { oncePer: 'email', emailField: 'email' },
    });

  async function submit(formId: string, email: string): Promise<void> {
    const response = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { email } },
    });
    expect(response.status, response.text).toBe(201);
  }

  /** A form's claims, wherever they are (on SQLite a claim waits in the log until its merge). */
  async function claimsOf(formId: string): Promise<string[]> {
    const rows = await db()
      .selectFrom('response_addresses')
      .select('address_hash')
      .where('form_id', '=', formId)
      .unionAll(db().selectFrom('response_address_log').select('address_hash').where('form_id', '=', formId))
      .execute();
    return rows.map((row) => row.address_hash).sort();
  }

  const claim = (formId: string, hash: string) => ({
    form_id: formId,
    address_hash: hash,
    submission_id: `sub_${hash}`,
    created_at: new Date().toISOString(),
  });

  it('deleting a form deletes its claims, and only its own', async () => {
    const doomed = await onceForm();
    const kept = await onceForm();
    await submit(doomed.id, 'ada@example.com');
    await submit(doomed.id, 'grace@example.com');
    await submit(kept.id, 'ada@example.com');
    // wherever an engine keeps them at the moment: SQLite's log until its merge, the indexed table
    await db().insertInto('response_addresses').values(claim(doomed.id, 'indexed')).execute();
    await db().insertInto('response_address_log').values(claim(doomed.id, 'logged')).execute();
    expect(await claimsOf(doomed.id)).toHaveLength(4);
    const deleted = await t.request({ method: 'DELETE', url: `/forms/${doomed.id}`, auth: owner.token });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await claimsOf(doomed.id)).toEqual([]);
    expect(await claimsOf(kept.id)).toHaveLength(1);
  });

  it('the retention job sweeps the claims of forms that exist no more, and keeps the others', async () => {
    const live = await onceForm();
    await submit(live.id, 'ada@example.com');
    const before = await claimsOf(live.id);
    // what a race with a form's deletion could leave: claims of no form, indexed and in the log
    const strays = Array.from({ length: 7 }, (_, i) => claim('frm_gone-00000000', `stray${i}`));
    await db().insertInto('response_addresses').values(strays.slice(0, 5)).execute();
    await db().insertInto('response_address_log').values(strays.slice(5)).execute();
    await db().insertInto('response_addresses').values(claim('frm_gone-11111111', 'other')).execute();

    const counts = await runRetention(t.app.intake.database, new Date(), { batchSize: 2 });
    expect(counts.strayClaims).toBe(8);
    expect(await claimsOf('frm_gone-00000000')).toEqual([]);
    expect(await claimsOf('frm_gone-11111111')).toEqual([]);
    expect(await claimsOf(live.id)).toEqual(before);
    expect((await runRetention(t.app.intake.database)).strayClaims).toBe(0);
  });

  it('migration 022 drops the key and keeps every claim; undone, it brings the key back', async () => {
    const form = await onceForm();
    await submit(form.id, 'ada@example.com');
    await db().insertInto('response_addresses').values(claim(form.id, 'indexed-by-hand')).execute();
    await db().insertInto('response_address_log').values(claim(form.id, 'logged-by-hand')).execute();
    let claims = await claimsOf(form.id);
    expect(claims).toHaveLength(3);
    const stray = () =>
      db().insertInto('response_addresses').values(claim('frm_none-22222222', 'x')).execute();
    const strayLogged = () =>
      db().insertInto('response_address_log').values(claim('frm_none-22222222', 'y')).execute();

    // run as Kysely's migrator runs them: on SQLite outside any transaction
    const logOrder = () =>
      sqlite()
        ? sql<{ address_hash: string }>`select address_hash from response_address_log order by rowid`
            .execute(db())
            .then(({ rows }) => rows.map((row) => row.address_hash))
        : Promise.resolve([]);
    // the log in its order of 022's time (a table with rowids): 023, which keys it, undone first
    // (it moves the log's claims into the indexed table), and a claim logged as then
    await m023.down(db() as unknown as Kysely<unknown>);
    await db().insertInto('response_address_log').values(claim(form.id, 'logged-at-022')).execute();
    claims = await claimsOf(form.id);
    expect(claims).toHaveLength(4);
    const order = await logOrder();
    if (sqlite()) expect(order).toEqual(['logged-at-022']);
    await m022.down(db() as unknown as Kysely<unknown>);
    expect(await claimsOf(form.id)).toEqual(claims);
    expect(await logOrder()).toEqual(order);
    await expect(stray()).rejects.toThrow(/foreign key/i);
    await expect(strayLogged()).rejects.toThrow(/foreign key/i);

    await m022.up(db() as unknown as Kysely<unknown>);
    expect(await claimsOf(form.id)).toEqual(claims);
    expect(await logOrder()).toEqual(order);
    await m023.up(db() as unknown as Kysely<unknown>);
    expect(await claimsOf(form.id)).toEqual(claims);
    await stray();
    await strayLogged();
    // the unique key and the submissions' index are there again
    await expect(
      db().insertInto('response_addresses').values(claim(form.id, 'indexed-by-hand')).execute(),
    ).rejects.toThrow(/unique|duplicate/i);
    const indexes = sqlite()
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'response_addresses'`.execute(
          db(),
        )
      : await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where tablename = 'response_addresses' and schemaname = current_schema()`.execute(
          db(),
        );
    expect(indexes.rows.map((row) => row.name)).toContain('response_addresses_submission');
    // and the service goes on claiming: a second submission from the address is still refused
    const again = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { email: 'ADA@example.com' } },
    });
    expect(again.status, again.text).toBe(409);
  });
  it("a form given a deleted form's id starts with no claims, in the tables or in memory", async () => {
    const id = `frm_reused-${Date.now().toString(36)}`;
    const body = {
      id,
      status: 'live',
      fields: [{ id: 'email', type: 'email', label: 'E-mail', required: true }],
      access: { oncePer: 'email', emailField: 'email' },
    };
    await createForm(t, owner.token, body);
    await submit(id, 'ada@example.com');
    const deleted = await t.request({ method: 'DELETE', url: `/forms/${id}`, auth: owner.token });
    expect(deleted.status, deleted.text).toBe(204);
    // what a race with the deletion could have left behind, not swept yet
    await db().insertInto('response_addresses').values(claim(id, 'left-behind')).execute();
    await createForm(t, owner.token, body);
    expect(await claimsOf(id)).toEqual([]);
    await submit(id, 'ada@example.com');
    expect(await claimsOf(id)).toHaveLength(1);
  });

  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'on SQLite a migration that fails half-way leaves both tables as they were',
    async () => {
      const form = await onceForm();
      await submit(form.id, 'grace@example.com');
      const claims = await claimsOf(form.id);
      await down(db() as unknown as Kysely<unknown>);
      // the log's copy cannot be made: the rebuild fails after the first table was built again
      await sql`create table response_address_log_next (blocking integer)`.execute(db());
      await expect(up(db() as unknown as Kysely<unknown>)).rejects.toThrow(/already exists/);
      expect(await claimsOf(form.id)).toEqual(claims);
      // the key is still there: nothing of the rebuild was kept
      await expect(
        db().insertInto('response_addresses').values(claim('frm_none-33333333', 'z')).execute(),
      ).rejects.toThrow(/foreign key/i);
      await sql`drop table response_address_log_next`.execute(db());
      await up(db() as unknown as Kysely<unknown>);
      expect(await claimsOf(form.id)).toEqual(claims);
    },
  );

  it('migration 023 keys the log by form and submission and keeps every claim, both ways; a failure half-way changes nothing', async () => {
    const form = await onceForm();
    await submit(form.id, 'barbara@example.com');
    await db().insertInto('response_address_log').values(claim(form.id, 'logged-023')).execute();
    let claims = await claimsOf(form.id);
    const keyed = async () =>
      sqlite()
        ? (
            await sql<{
              sql: string;
            }>`select sql from sqlite_master where name = 'response_address_log'`.execute(db())
          ).rows.some((row) => /without rowid/i.test(row.sql))
        : (
            await sql<{ name: string }>`select indexname as name from pg_indexes
              where tablename = 'response_address_log' and schemaname = current_schema()`.execute(db())
          ).rows.some((row) => row.name === 'response_address_log_form');
    expect(await keyed()).toBe(true);
    await m023.down(db() as unknown as Kysely<unknown>);
    expect(await keyed()).toBe(false);
    expect(await claimsOf(form.id)).toEqual(claims);
    if (sqlite()) {
      // the version before holds its whole log in memory: the claims are moved into the indexed table
      expect(await db().selectFrom('response_address_log').select('form_id').execute()).toEqual([]);
      // and the log is a table with rowids again
      await db().insertInto('response_address_log').values(claim(form.id, 'logged-after-down')).execute();
      claims = await claimsOf(form.id);
    }
    if (sqlite()) {
      // going down fails after the log's claims were moved: the move is undone with the rest
      await m023.up(db() as unknown as Kysely<unknown>);
      await sql`create trigger response_address_log_kept before delete on response_address_log
        begin select raise(abort, 'the log is kept'); end`.execute(db());
      await expect(m023.down(db() as unknown as Kysely<unknown>)).rejects.toThrow(/the log is kept/);
      await sql`drop trigger response_address_log_kept`.execute(db());
      expect(await keyed()).toBe(true);
      expect(await claimsOf(form.id)).toEqual(claims);
      expect(
        (
          await db()
            .selectFrom('response_address_log')
            .select('form_id')
            .where('form_id', '=', form.id)
            .execute()
        ).length,
      ).toBeGreaterThan(0);
      await m023.down(db() as unknown as Kysely<unknown>);
      // the copy cannot be made: nothing of the rebuild is kept
      await sql`create table response_address_log_next (blocking integer)`.execute(db());
      await expect(m023.up(db() as unknown as Kysely<unknown>)).rejects.toThrow(/already exists/);
      expect(await keyed()).toBe(false);
      expect(await claimsOf(form.id)).toEqual(claims);
      await sql`drop table response_address_log_next`.execute(db());
    }
    await m023.up(db() as unknown as Kysely<unknown>);
    expect(await keyed()).toBe(true);
    expect(await claimsOf(form.id)).toEqual(claims);
    // the service goes on: the address is refused again, another taken
    const again = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { email: 'Barbara@example.com' } },
    });
    expect(again.status, again.text).toBe(409);
    await submit(form.id, 'donald@example.com');
  });
});
