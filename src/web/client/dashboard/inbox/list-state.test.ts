import { describe, expect, it } from 'vitest';
import { INITIAL, type ListEvent, type ListState, listReducer, neighbours } from './list-state.js';
import type { Page, Submission } from './model.js';

const row = (id: string, createdAt = '2026-11-20T10:00:00.000Z'): Submission => ({
  id,
  formId: 'frm_1',
  environment: 'development',
  answers: { name: id },
  sessionId: null,
  status: 'accepted',
  read: false,
  starred: false,
  language: 'en',
  notes: [],
  createdAt,
});
const page = (ids: string[], nextCursor: string | null = null): Page => ({
  data: ids.map((id) => row(id)),
  nextCursor,
});
const run = (events: ListEvent[], from: ListState = INITIAL) => events.reduce(listReducer, from);
const ids = (state: ListState) => state.rows?.map((item) => item.id);

describe('the inbox list', () => {
  it('reads a first page, then appends the next on the cursor', () => {
    const state = run([
      { type: 'reading', generation: 1 },
      { type: 'read', generation: 1, page: page(['c', 'b'], 'cur') },
      { type: 'loadingMore', generation: 1 },
    ]);
    expect(state).toMatchObject({ cursor: 'cur', loadingMore: true });
    const more = listReducer(state, { type: 'readMore', generation: 1, page: page(['a']) });
    expect(ids(more)).toEqual(['c', 'b', 'a']);
    expect(more).toMatchObject({ cursor: null, loadingMore: false });
  });

  it('shows nothing while a list is read anew, and forgets that newer responses arrived', () => {
    const state = run([
      { type: 'reading', generation: 1 },
      { type: 'read', generation: 1, page: page(['a']) },
      { type: 'arrived', generation: 1 },
      { type: 'reading', generation: 2 },
    ]);
    expect(state).toMatchObject({ rows: undefined, arrived: false, generation: 2 });
  });

  it('drops answers for an older generation (a slow page of the filter left)', () => {
    const state = run([
      { type: 'reading', generation: 1 },
      { type: 'reading', generation: 2 },
      { type: 'read', generation: 1, page: page(['old']) },
      { type: 'arrived', generation: 1 },
    ]);
    expect(state.rows).toBeUndefined();
    expect(state.arrived).toBe(false);
    const read = run(
      [
        { type: 'read', generation: 2, page: page(['new']) },
        { type: 'readMore', generation: 1, page: page(['stale']) },
      ],
      state,
    );
    expect(ids(read)).toEqual(['new']);
  });

  it('ends "Load more" when it failed, for the list it was asked for only', () => {
    const loading = run([
      { type: 'reading', generation: 1 },
      { type: 'read', generation: 1, page: page(['a'], 'cur') },
      { type: 'loadingMore', generation: 1 },
    ]);
    expect(listReducer(loading, { type: 'failed', generation: 0 }).loadingMore).toBe(true);
    expect(listReducer(loading, { type: 'failed', generation: 1 }).loadingMore).toBe(false);
  });

  it('closes the open response when the filter changes, keeping the rest of the filter', () => {
    const state = run([
      { type: 'filtered', change: { starred: true } },
      { type: 'opened', id: 'a' },
      { type: 'filtered', change: { status: 'flagged' } },
    ]);
    expect(state.filter).toMatchObject({ starred: true, status: 'flagged', read: '' });
    expect(state.open).toBeUndefined();
  });

  it('reads the same filter anew on "Show new responses", closing the open response', () => {
    const state = run([
      { type: 'filtered', change: { starred: true } },
      { type: 'opened', id: 'a' },
      { type: 'reloaded' },
    ]);
    expect(state).toMatchObject({ reloads: 1, open: undefined, filter: { starred: true } });
  });

  it('changes one response in place, and removes one (closing it if open)', () => {
    const state = run([
      { type: 'reading', generation: 1 },
      { type: 'read', generation: 1, page: page(['a', 'b']) },
      { type: 'opened', id: 'b' },
      { type: 'changed', id: 'b', change: { starred: true, read: true } },
    ]);
    expect(state.rows?.map((item) => [item.id, item.starred, item.read])).toEqual([
      ['a', false, false],
      ['b', true, true],
    ]);
    const removed = listReducer(state, { type: 'removed', id: 'b' });
    expect(ids(removed)).toEqual(['a']);
    expect(removed.open).toBeUndefined();
    expect(listReducer(state, { type: 'removed', id: 'a' }).open).toBe('b');
  });
});

describe('neighbours', () => {
  const rows = ['a', 'b', 'c'].map((id) => row(id));
  it('are the responses after and before the open one', () => {
    expect(neighbours(rows, 'b')).toEqual({ next: rows[2], previous: rows[0] });
    expect(neighbours(rows, 'c')).toEqual({ next: undefined, previous: rows[1] });
  });
  it('start at the first response when none is open', () => {
    expect(neighbours(rows, undefined)).toEqual({ next: rows[0], previous: undefined });
  });
});
