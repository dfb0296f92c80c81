import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectionWatch, underGcTrace } from '../../test/support/gc-trace.js';
import { PROMOTED_GROWTH_BYTES, promotionPacer } from './promoted-memory.js';

describe('promotionPacer', () => {
  /** A pacer asking once the old generation (`heap.old`) grew 100 bytes; what it asked, and the asks' settling. */
  const paced = (heap: { old: number }) => {
    const asked: unknown[] = [];
    const settle: Array<() => void> = [];
    const pacer = promotionPacer(
      (options) => {
        asked.push(options);
        return new Promise<void>((resolve) => settle.push(resolve));
      },
      { growthBytes: 100, oldGeneration: () => heap.old },
    );
    return { asked, settle, pacer };
  };

  /** Lets the collection asked for settle, and its promise's reaction run. */
  const settled = async (settle: Array<() => void>, index: number) => {
    settle[index]?.();
    await Promise.resolve();
    await Promise.resolve();
  };

  it('asks for one full collection, run as a task, once the old generation grew by the mark since the read began', () => {
    const heap = { old: 150 };
    const { asked, pacer } = paced(heap);
    const check = pacer.start();
    heap.old = 249;
    check();
    expect(asked).toEqual([]);
    heap.old = 250;
    check();
    expect(asked).toEqual([{ type: 'major', execution: 'async' }]);
  });

  it('waits for half the old generation’s size when that is more than the mark (a large live heap)', () => {
    const heap = { old: 1000 };
    const { asked, pacer } = paced(heap);
    const check = pacer.start();
    heap.old = 1499;
    check();
    expect(asked).toEqual([]);
    heap.old = 1500;
    check();
    expect(asked).toHaveLength(1);
  });

  it('asks nothing more while a collection is pending, then counts from what it left', async () => {
    const heap = { old: 0 };
    const { asked, settle, pacer } = paced(heap);
    const check = pacer.start();
    heap.old = 150;
    check();
    heap.old = 400;
    check();
    expect(asked).toHaveLength(1);
    // the collection left 120 bytes
    heap.old = 120;
    await settled(settle, 0);
    heap.old = 219;
    check();
    expect(asked).toHaveLength(1);
    heap.old = 220;
    check();
    expect(asked).toHaveLength(2);
  });

  it('one collection at a time for the process: one made for a read counts for every read under way', async () => {
    const heap = { old: 50 };
    const { asked, settle, pacer } = paced(heap);
    const first = pacer.start();
    heap.old = 130;
    const second = pacer.start();
    heap.old = 160;
    first();
    expect(asked).toHaveLength(1);
    // the other read has grown it past its own mark too, but the collection is under way
    heap.old = 240;
    second();
    expect(asked).toHaveLength(1);
    heap.old = 60;
    await settled(settle, 0);
    // both count from what that collection left (60): 159 asks nothing, 160 asks once
    heap.old = 159;
    second();
    first();
    expect(asked).toHaveLength(1);
    heap.old = 160;
    second();
    first();
    expect(asked).toHaveLength(2);
  });

  it('goes on when V8 refuses the collection, asking again only after as much growth more', () => {
    const heap = { old: 0 };
    let calls = 0;
    const check = promotionPacer(
      () => {
        calls += 1;
        throw new TypeError('unknown option');
      },
      { growthBytes: 100, oldGeneration: () => heap.old },
    ).start();
    heap.old = 100;
    expect(check).not.toThrow();
    heap.old = 150;
    check();
    expect(calls).toBe(1);
    heap.old = 200;
    check();
    expect(calls).toBe(2);
  });

  it('does nothing without a collector (a process started without --expose-gc)', () => {
    const check = promotionPacer(undefined, { growthBytes: 1, oldGeneration: () => 1e12 }).start();
    expect(check).not.toThrow();
  });
});

describe("the exports' pacer", () => {
  // In a process of its own: the old generation filled past the mark with garbage, then checked;
  // what V8 itself reports (--trace-gc) after the check. A collection asked for through `gc` is
  // named "testing"; the one asked for runs as a task, so the child waits for it.
  const child = (flags: string[], waitMs: number) =>
    underGcTrace(
      flags,
      `${collectionWatch}
      const { exportPacer, oldGenerationBytes, PROMOTED_GROWTH_BYTES } = await import(${JSON.stringify(path.join(import.meta.dirname, 'promoted-memory.ts'))});
      const check = exportPacer.start();
      const before = oldGenerationBytes();
      let garbage = [];
      // kept until the mark is passed: young objects move to the old generation as they survive
      while (oldGenerationBytes() - before < PROMOTED_GROWTH_BYTES) garbage.push(new Array(5_000).fill(garbage.length));
      garbage = null;
      // the one asked for: a major collection V8 marks as forced
      const collected = watchCollection('major', true);
      check();
      console.log('-- checked, grown ' + (oldGenerationBytes() - before));
      await collected(${waitMs});
      console.log('-- left ' + (oldGenerationBytes() - before));`,
    );
  const asked = (trace: string) =>
    trace.split('\n').filter((line) => /Mark-Compact.*testing/.test(line)).length;

  it('under --expose-gc (npm start), a full collection once the old generation grew past the mark, which gives it back', () => {
    const trace = child(['--expose-gc'], 10_000);
    const [before = '', after = ''] = trace.split('-- checked');
    expect(asked(before)).toBe(0);
    // V8 runs the full collection it is asked for as one or two mark-compacts
    expect(asked(after)).toBeGreaterThanOrEqual(1);
    const grown = Number(/grown (\d+)/.exec(trace)?.[1]);
    const left = Number(/left (-?\d+)/.exec(trace)?.[1]);
    expect(grown).toBeGreaterThanOrEqual(PROMOTED_GROWTH_BYTES);
    expect(left).toBeLessThan(grown / 4);
  });

  it('without the flag, asks for nothing', () => {
    expect(asked(child([], 300))).toBe(0);
  });
});
