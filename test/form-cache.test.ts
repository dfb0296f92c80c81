import { describe, expect, it } from 'vitest';
import { findFormCached, type StoredForm, updateForm } from '../src/features/forms/repo.js';
import type { Db, Trx } from '../src/platform/db/database.js';

/**
 * findFormCached must never keep a row read before a local change committed, however many
 * other forms were changed before (the marks of recent changes must not be evicted, and a
 * form changed again must get a fresh mark): else a submit load overlapping a disable would
 * cache the form still `live` for a second.
 */

const form = (id: string, status: StoredForm['status'], version: number): StoredForm => ({
  id,
  workspaceId: 'wsp_x',
  userId: 'usr_x',
  environment: 'development',
  title: 'T',
  status,
  version,
  definition: { fields: [], storage: { mode: 'owner', pii: 'plain' } } as unknown as StoredForm['definition'],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const row = (f: StoredForm) => ({
  id: f.id,
  workspace_id: f.workspaceId,
  user_id: f.userId,
  environment: f.environment,
  title: f.title,
  status: f.status,
  version: f.version,
  definition: JSON.stringify(f.definition),
  created_at: f.createdAt,
  updated_at: f.updatedAt,
});

/** A Db whose one SELECT answers when told to (a read that started before the change committed). */
function dbAnswering(answer: Promise<unknown>): Db {
  const chain = { selectAll: () => chain, where: () => chain, executeTakeFirst: () => answer };
  return { selectFrom: () => chain } as unknown as Db;
}

const trx = (() => {
  const chain: Record<string, unknown> = {};
  chain.set = () => chain;
  chain.where = () => chain;
  chain.executeTakeFirst = async () => ({ numUpdatedRows: 1n });
  return { updateTable: () => chain } as unknown as Trx;
})();

describe('form cache of the submit path', () => {
  it('never caches a row read across a local change, even with many forms changed before', async () => {
    const id = 'frm_review_cache_x';
    // the form was edited once long ago, and never submitted to since: its mark is the oldest
    await updateForm(trx, form(id, 'live', 2), 1);
    for (let i = 0; i < 9_999; i++) await updateForm(trx, form(`frm_other_${i}`, 'live', 2), 1);

    // a submit starts loading the form; its SELECT sees the row before the change commits
    let answer!: (value: unknown) => void;
    const loading = findFormCached(dbAnswering(new Promise((resolve) => (answer = resolve))), id);
    // the owner disables the form (this process), and someone else's form is edited meanwhile
    await updateForm(trx, form(id, 'disabled', 3), 2);
    await updateForm(trx, form('frm_another', 'live', 2), 1);
    answer(row(form(id, 'live', 2)));
    expect((await loading)?.status).toBe('live'); // that load itself may see the old row

    // but a submit after the disable was acknowledged must not be served the old row
    const after = await findFormCached(dbAnswering(Promise.resolve(row(form(id, 'disabled', 3)))), id);
    expect(after?.status).toBe('disabled');
  });
});
