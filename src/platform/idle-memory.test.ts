import { describe, expect, it } from 'vitest';
import { releaseMemoryWhenIdle } from './idle-memory.js';

const MiB = 1024 * 1024;

/** A process whose clock, heap, RSS and event loop the test sets; each collection shrinks the heap to `floor`. */
function fakeProcess() {
  const state = { now: 0, heap: 40 * MiB, busy: 0, floor: 24 * MiB, collections: 0 };
  const released: Array<{ heapBefore: number; heapAfter: number }> = [];
  const watch = releaseMemoryWhenIdle({
    collect: (options) => {
      expect(options).toEqual({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      state.collections += 1;
      state.heap = state.floor;
    },
    onRelease: ({ heapBefore, heapAfter }) => released.push({ heapBefore, heapAfter }),
    intervalMs: 60_000,
    now: () => state.now,
    heapSize: () => state.heap,
    rss: () => state.heap + 60 * MiB,
    busyShare: () => state.busy,
  });
  return { state, released, watch };
}

describe('memory given back while idle', () => {
  it('asks once start-up is over and the loop idle, then not again until the heap has grown back', () => {
    const { state, released, watch } = fakeProcess();
    try {
      state.busy = 0.6; // start-up still compiling
      watch.check();
      expect(state.collections).toBe(0);
      state.busy = 0.01;
      watch.check();
      expect(state.collections).toBe(1);
      expect(released).toEqual([{ heapBefore: 40 * MiB, heapAfter: 24 * MiB }]);

      // idle for a long while: nothing grew, nothing to give back
      state.now += 60_000;
      watch.check();
      expect(state.collections).toBe(1);

      // a busy stretch grows the heap: nothing asked while it lasts
      state.heap = 56 * MiB;
      state.busy = 0.9;
      watch.check();
      expect(state.collections).toBe(1);
      // idle again: given back
      state.busy = 0;
      watch.check();
      expect(state.collections).toBe(2);
    } finally {
      watch.stop();
    }
  });

  it('leaves small growth alone and keeps collections apart', () => {
    const { state, watch } = fakeProcess();
    try {
      watch.check();
      expect(state.collections).toBe(1);
      // grown again at once: the spacing holds it back
      state.heap = 60 * MiB;
      state.now += 5_000;
      watch.check();
      expect(state.collections).toBe(1);
      state.now += 5_000;
      watch.check();
      expect(state.collections).toBe(2);
      // grown by less than is worth a pause
      state.heap = 24 * MiB + 7 * MiB;
      state.now += 60_000;
      watch.check();
      expect(state.collections).toBe(2);
    } finally {
      watch.stop();
    }
  });

  // V8's side (the collection shrinks what start-up grew) is held by test/npm-start.test.ts, against `npm start` itself
  it('does nothing without gc (a process started without --expose-gc)', () => {
    const watch = releaseMemoryWhenIdle({ collect: undefined, busyShare: () => 0, heapSize: () => 1e9 });
    expect(() => watch.check()).not.toThrow();
    watch.stop();
  });
});
