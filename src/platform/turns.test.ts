import { describe, expect, it } from 'vitest';
import { Turns } from './turns.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/** Work that lasts a tick, and the most of it that ran at once. */
function overlapping() {
  let running = 0;
  const seen = { most: 0 };
  const work = async () => {
    running++;
    seen.most = Math.max(seen.most, running);
    await tick();
    running--;
  };
  return { work, seen };
}

describe('Turns', () => {
  it('runs the work of one key one at a time, in the order asked, whatever each outcome', async () => {
    const turns = new Turns();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const work =
      (name: string, fail = false) =>
      async () => {
        running++;
        most = Math.max(most, running);
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        running--;
        if (fail) throw new Error(name);
        return name;
      };
    const outcomes = await Promise.allSettled([
      turns.take('form', work('a')),
      turns.take('form', work('b', true)),
      turns.take('form', work('c')),
    ]);
    expect(most).toBe(1);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(turns.busy).toBe(0);
  });

  it('lets other keys run at the same time', async () => {
    const turns = new Turns();
    const { work, seen } = overlapping();
    await Promise.all([turns.take('a', work), turns.take('b', work), turns.take('c', work)]);
    expect(seen.most).toBe(3);
  });
});

describe('Turns past its bound', () => {
  it('runs work at once beside the queue when maxWaiting already wait on the key', async () => {
    const turns = new Turns(2);
    const first = overlapping();
    // two in line (one at a time), the third and fourth beside them
    await Promise.all([1, 2, 3, 4].map(() => turns.take('form', first.work)));
    expect(first.seen.most).toBe(3);
    expect(turns.busy).toBe(0);
    // the count is given back: two in line again
    const again = overlapping();
    await Promise.all([1, 2].map(() => turns.take('form', again.work)));
    expect(again.seen.most).toBe(1);
  });
});
