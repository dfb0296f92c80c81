import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectionWatch, underGcTrace } from '../../test/support/gc-trace.js';
import { CHURN_BYTES, churnCounter } from './external-memory.js';

describe('churnCounter', () => {
  /** A counter asking every 100 bytes, at most every 50 ms of `clock.ms`, and what it asked. */
  const paced = (clock: { ms: number }) => {
    const asked: unknown[] = [];
    const streamed = churnCounter((options) => asked.push(options), {
      every: 100,
      minIntervalMs: 50,
      now: () => clock.ms,
    });
    return { asked, streamed };
  };

  it('asks for one young-generation collection, run as a task, each time the bytes pass the mark', () => {
    const clock = { ms: 0 };
    const { asked, streamed } = paced(clock);
    streamed(60);
    streamed(39);
    expect(asked).toEqual([]);
    streamed(1);
    expect(asked).toEqual([{ type: 'minor', execution: 'async' }]);
    // counted afresh from the collection on
    clock.ms += 60;
    streamed(99);
    expect(asked).toHaveLength(1);
    streamed(250);
    expect(asked).toHaveLength(2);
  });

  it('asks at most once in the shortest interval: the bytes stay counted, and a chunk after it asks', () => {
    const clock = { ms: 1000 };
    const { asked, streamed } = paced(clock);
    streamed(100);
    expect(asked).toHaveLength(1);
    clock.ms += 10;
    streamed(500);
    clock.ms += 39;
    streamed(1);
    expect(asked).toHaveLength(1);
    clock.ms += 1;
    streamed(1);
    expect(asked).toHaveLength(2);
  });

  it('does nothing without a collector (a process started without --expose-gc)', () => {
    const streamed = churnCounter(undefined, { every: 1 });
    expect(() => streamed(10 * CHURN_BYTES)).not.toThrow();
  });
});

describe("the process's counter", () => {
  // In a process of its own: what V8 itself reports (--trace-gc) when the mark is passed. After
  // the mark the child waits for a young collection to be done (Node's `gc` performance entries),
  // up to `waitMs`: the one asked for runs as a task, later on a loaded machine.
  const child = (flags: string[], waitMs: number) =>
    underGcTrace(
      flags,
      `${collectionWatch}
      const { countUploadedBytes, CHURN_BYTES } = await import(${JSON.stringify(path.join(import.meta.dirname, 'external-memory.ts'))});
      countUploadedBytes(CHURN_BYTES - 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      console.log('-- passing the mark');
      const collected = watchCollection('minor', false);
      countUploadedBytes(1);
      await collected(${waitMs});`,
    );
  // V8 names a collection asked for through `gc` "testing"; a young one is a scavenge (or, should
  // V8 switch, a minor mark-sweep)
  const asked = (trace: string) =>
    trace.split('\n').filter((line) => /(Scavenge|Minor Mark-Sweep).*testing/.test(line)).length;

  it('under --expose-gc (npm start), collects the young generation once the uploaded bytes pass the mark', () => {
    const [before = '', after = ''] = child(['--expose-gc'], 10_000).split('-- passing the mark');
    expect(asked(before)).toBe(0);
    expect(asked(after)).toBe(1);
  });

  it('without the flag, asks for nothing', () => {
    expect(asked(child([], 300))).toBe(0);
  });
});
