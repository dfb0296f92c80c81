import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHURN_BYTES, churnCounter } from './external-memory.js';

describe('churnCounter', () => {
  it('asks for one young-generation collection, run as a task, each time the bytes pass the mark', () => {
    const asked: unknown[] = [];
    const streamed = churnCounter((options) => asked.push(options), 100);
    streamed(60);
    streamed(39);
    expect(asked).toEqual([]);
    streamed(1);
    expect(asked).toEqual([{ type: 'minor', execution: 'async' }]);
    // counted afresh from the collection on
    streamed(99);
    expect(asked).toHaveLength(1);
    streamed(250);
    expect(asked).toHaveLength(2);
  });

  it('does nothing without a collector (a process started without --expose-gc)', () => {
    const streamed = churnCounter(undefined, 1);
    expect(() => streamed(10 * CHURN_BYTES)).not.toThrow();
  });
});

describe("the process's counter", () => {
  // In a process of its own: what V8 itself reports (--trace-gc) when the mark is passed.
  const child = (flags: string[]) =>
    execFileSync(
      process.execPath,
      [
        ...flags,
        '--trace-gc',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { streamedBytes, CHURN_BYTES } = await import(${JSON.stringify(path.join(import.meta.dirname, 'external-memory.ts'))});
        const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
        streamedBytes(CHURN_BYTES - 1);
        await pause();
        console.log('-- passing the mark');
        streamedBytes(1);
        await pause();
        console.log('-- done');`,
      ],
      { encoding: 'utf8', cwd: path.join(import.meta.dirname, '..', '..') },
    );
  // V8 names a collection asked for through `gc` "testing"
  const asked = (trace: string) => trace.split('\n').filter((line) => /Scavenge.*testing/.test(line)).length;

  it('under --expose-gc (npm start), collects the young generation once the streamed bytes pass the mark', () => {
    const [before = '', after = ''] = child(['--expose-gc']).split('-- passing the mark');
    expect(asked(before)).toBe(0);
    expect(asked(after.split('-- done')[0] ?? '')).toBe(1);
  });

  it('without the flag, asks for nothing', () => {
    expect(asked(child([]))).toBe(0);
  });
});
