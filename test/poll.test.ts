import { describe, expect, it } from 'vitest';
import { eventually, waitFor } from './support/poll.js';

/** The polling helpers the tests wait with (test/support/poll.ts). */
describe('eventually', () => {
  it('retries the assertion until it passes, and answers what it returned', async () => {
    let calls = 0;
    const value = await eventually(
      () => {
        calls++;
        expect(calls).toBeGreaterThanOrEqual(3);
        return 'done';
      },
      { intervalMs: 1 },
    );
    expect(value).toBe('done');
    expect(calls).toBe(3);
  });

  it('rethrows the last failure once the time is up, saying what it waited for', async () => {
    let calls = 0;
    const started = Date.now();
    const failure = await eventually(
      () => {
        calls++;
        expect(calls).toBe(-1);
      },
      { timeoutMs: 50, intervalMs: 5, what: 'the impossible' },
    ).catch((error: Error) => error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    expect(calls).toBeGreaterThan(1);
    expect(String(failure)).toMatch(new RegExp(`expected ${calls} to be -1`));
    expect(String(failure)).toMatch(/waiting for the impossible/);
  });
});

describe('waitFor', () => {
  it('answers the first truthy value of the predicate, async or not', async () => {
    let n = 0;
    expect(await waitFor(() => ++n >= 2 && `after ${n}`, { intervalMs: 1 })).toBe('after 2');
    expect(await waitFor(async () => [] as string[])).toEqual([]);
  });

  it('throws once the time is up', async () => {
    await expect(waitFor(() => false, { timeoutMs: 30, intervalMs: 5, what: 'nothing' })).rejects.toThrow(
      'timed out after 30 ms waiting for nothing',
    );
  });
});
