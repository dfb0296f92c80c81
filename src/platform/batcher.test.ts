import { describe, expect, it, vi } from 'vitest';
import { Batcher, retryAfterS } from './batcher.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('Batcher', () => {
  it('counts the items waiting for a batch, not those in hand', async () => {
    let release = () => {};
    const batcher = new Batcher<number>(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      { maxBatch: 2 },
    );
    for (let i = 0; i < 5; i++) batcher.add(i);
    expect(batcher.pending).toBe(5);
    // one batch of two cut and in hand, three waiting
    await vi.waitFor(() => expect(batcher.pending).toBe(3));
    release();
    await vi.waitFor(() => expect(batcher.pending).toBe(1));
    release();
    // the last batch cut (and its release handed over) before it is let go
    await vi.waitFor(() => expect(batcher.pending).toBe(0));
    release();
    await batcher.flush();
    expect(batcher.batchSizes).toEqual([2, 2, 1]);
  });

  it('with a linger, cuts a batch that long after its first item, with all that came meanwhile', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number>(
      async (batch) => {
        batches.push(batch);
      },
      // long beside the sleeps below, so that a loaded machine does not cut it early
      { lingerMs: 400 },
    );
    const started = performance.now();
    batcher.add(1);
    await sleep(15);
    batcher.add(2);
    await sleep(5);
    batcher.add(3);
    expect(batches, 'nothing cut before the linger is over').toEqual([]);
    await vi.waitFor(() => expect(batches).toEqual([[1, 2, 3]]), { timeout: 2000 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    // without one, items of different turns go in different batches
    const eager: number[][] = [];
    const plain = new Batcher<number>(async (batch) => {
      eager.push(batch);
    });
    plain.add(1);
    await sleep(15);
    plain.add(2);
    await plain.flush();
    expect(eager).toEqual([[1], [2]]);
  });

  it('flushes what was queued before the call, cutting a linger short, whatever is queued after', async () => {
    const handled: number[] = [];
    const batcher = new Batcher<number>(
      async (batch) => {
        await sleep(5);
        handled.push(...batch);
      },
      { lingerMs: 60_000 },
    );
    batcher.add(1);
    batcher.add(2);
    const started = performance.now();
    // a steady stream meanwhile: an item every millisecond, never idle
    let next = 3;
    const stream = setInterval(() => batcher.add(next++), 1);
    try {
      await batcher.flush();
    } finally {
      clearInterval(stream);
    }
    expect(handled.slice(0, 2)).toEqual([1, 2]);
    expect(performance.now() - started, 'not the minute of the linger').toBeLessThan(5_000);
    // drain waits for everything, the stream's items too, and cuts the linger short as well
    await batcher.drain();
    expect(handled).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
  });

  it('expires items that waited past the deadline, whether or not a batch is cut meanwhile', async () => {
    const handled: number[] = [];
    const expired: Array<{ item: number; waitedMs: number }> = [];
    let release = () => {};
    const batcher = new Batcher<number>(
      async (batch) => {
        handled.push(...batch);
        if (batch.includes(0)) {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        }
      },
      { maxBatch: 1, deadlineMs: 100, expire: (item, waitedMs) => expired.push({ item, waitedMs }) },
    );
    batcher.add(0);
    batcher.add(1);
    batcher.add(2);
    // the batch of 0 is still in hand: 1 and 2 run out by the timer, not at a cut
    await vi.waitFor(() => expect(expired.map((entry) => entry.item)).toEqual([1, 2]), { timeout: 5_000 });
    expect(expired.every((entry) => entry.waitedMs > 100)).toBe(true);
    expect(batcher.pending).toBe(0);
    batcher.add(3);
    release();
    await batcher.flush();
    // the one in hand when its time ran out was handled, never expired; 3 was still in time
    expect(handled).toEqual([0, 3]);
  });

  it('estimates the wait from the duration of the last batches, for Retry-After', async () => {
    // every batch takes 20 ms: the duration the estimate is made of
    const batcher = new Batcher<number>(() => sleep(20), { maxBatch: 10 });
    expect(batcher.estimatedWaitMs()).toBeUndefined();
    expect(retryAfterS(batcher)).toBe(1);
    for (let i = 0; i < 30; i++) batcher.add(i);
    await batcher.flush();
    // batches of 10 taking 20 ms or more: a queue of 200 takes at least 400 ms to drain
    for (let i = 0; i < 200; i++) batcher.add(i);
    const waitMs = batcher.estimatedWaitMs() ?? 0;
    expect(waitMs).toBeGreaterThan(300);
    expect(waitMs).toBeLessThan(10_000);
    expect(retryAfterS(batcher)).toBeGreaterThanOrEqual(1);
    expect(retryAfterS(batcher)).toBeLessThanOrEqual(10);
    await batcher.flush();
  });
});
