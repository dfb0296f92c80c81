import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { busyShareReader, releaseMemoryWhenIdle } from './idle-memory.js';

const MiB = 1024 * 1024;
const SECOND = 1000;

/**
 * A process whose clock, heap, RSS and event loop the test sets; each collection shrinks the heap
 * to `floor` and takes `collectionMs` of the clock.
 */
function fakeProcess() {
  const state = { now: 0, heap: 40 * MiB, busy: 0, floor: 24 * MiB, collections: 0, collectionMs: 50 };
  const released: Array<{ heapBefore: number; heapAfter: number; ms: number }> = [];
  const watch = releaseMemoryWhenIdle({
    collect: (options) => {
      expect(options).toEqual({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      state.collections += 1;
      state.heap = state.floor;
      state.now += state.collectionMs;
    },
    onRelease: ({ heapBefore, heapAfter, ms }) => released.push({ heapBefore, heapAfter, ms }),
    intervalMs: 60 * SECOND,
    now: () => state.now,
    heapSize: () => state.heap,
    rss: () => state.heap + 60 * MiB,
    busyShare: () => state.busy,
  });
  /** Two readings, the idle ones a collection waits for. */
  const twice = () => {
    watch.check();
    watch.check();
  };
  return { state, released, watch, twice };
}

describe('memory given back while idle', () => {
  it('asks once start-up is over and the loop idle for two readings, then not again until the heap has grown back', () => {
    const { state, released, watch, twice } = fakeProcess();
    try {
      state.busy = 0.6; // start-up still compiling
      twice();
      expect(state.collections).toBe(0);
      state.busy = 0.01;
      watch.check();
      // one idle reading is not yet at rest
      expect(state.collections).toBe(0);
      watch.check();
      expect(state.collections).toBe(1);
      expect(released).toEqual([{ heapBefore: 40 * MiB, heapAfter: 24 * MiB, ms: 50 }]);

      // idle for a long while: nothing grew, nothing to give back
      state.now += 60 * SECOND;
      twice();
      expect(state.collections).toBe(1);

      // a busy stretch grows the heap: nothing asked while it lasts, nor on its first idle reading
      state.heap = 56 * MiB;
      state.busy = 0.9;
      twice();
      expect(state.collections).toBe(1);
      state.busy = 0;
      watch.check();
      expect(state.collections).toBe(1);
      watch.check();
      expect(state.collections).toBe(2);
    } finally {
      watch.stop();
    }
  });

  it('leaves small growth alone, and counts the spacing from the end of the last collection', () => {
    const { state, watch, twice } = fakeProcess();
    try {
      twice();
      expect(state.collections).toBe(1);
      // grown again at once: the spacing (10 s from the collection's end, at 50 ms) holds it back
      state.heap = 60 * MiB;
      state.now = 10 * SECOND + 20;
      twice();
      expect(state.collections).toBe(1);
      state.now = 10 * SECOND + 50;
      twice();
      expect(state.collections).toBe(2);
      // grown by less than is worth a pause
      state.heap = 24 * MiB + 7 * MiB;
      state.now += 60 * SECOND;
      twice();
      expect(state.collections).toBe(2);
    } finally {
      watch.stop();
    }
  });

  it('waits longer each time collections keep coming back, and starts over after a quiet stretch', () => {
    const { state, watch, twice } = fakeProcess();
    state.collectionMs = 0;
    /** The heap grown back, then readings each second until a collection: the seconds it took. */
    const nextCollectionAfter = () => {
      const before = state.collections;
      const start = state.now;
      state.heap = 60 * MiB;
      while (state.collections === before) {
        state.now += SECOND;
        twice();
      }
      return (state.now - start) / SECOND;
    };
    try {
      twice();
      expect(state.collections).toBe(1);
      // a light load that looks idle between its requests: 10 s, then 20, 40, 80…
      expect([1, 2, 3, 4, 5].map(nextCollectionAfter)).toEqual([10, 20, 40, 80, 160]);
      // … up to ten minutes
      for (let i = 0; i < 4; i++) nextCollectionAfter();
      expect(nextCollectionAfter()).toBe(600);
      // a long quiet stretch: the next collection is judged as the first
      state.now += 3_600 * SECOND;
      expect(nextCollectionAfter()).toBe(1);
      expect(nextCollectionAfter()).toBe(10);
    } finally {
      watch.stop();
    }
  });

  it('stops, and goes on without, when V8 refuses the collection', () => {
    const failures: unknown[] = [];
    let asked = 0;
    const watch = releaseMemoryWhenIdle({
      collect: () => {
        asked += 1;
        throw new TypeError('unknown option');
      },
      onFailure: (error) => failures.push(error),
      busyShare: () => 0,
      heapSize: () => 1e9,
      intervalMs: 60 * SECOND,
    });
    try {
      watch.check();
      expect(() => watch.check()).not.toThrow();
      expect(failures).toHaveLength(1);
      // stopped: never asked again
      for (let i = 0; i < 4; i++) watch.check();
      expect(asked).toBe(1);
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

  it('reads the event loop busy while work holds it, and idle while it waits', async () => {
    const busyShare = busyShareReader();
    const until = performance.now() + 100;
    while (performance.now() < until) {
      // the loop held, as a request's work holds it
    }
    expect(busyShare()).toBeGreaterThan(0.5);
    await sleep(100);
    expect(busyShare()).toBeLessThan(0.5);
  });
});
