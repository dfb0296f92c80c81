import { describe, expect, it } from 'vitest';
import { Turns } from './turns.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

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
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
    };
    await Promise.all([turns.take('a', work), turns.take('b', work), turns.take('c', work)]);
    expect(most).toBe(3);
  });
});

describe('Turns past its bound', () => {
  it('runs work at once beside the queue when maxWaiting already wait on the key', async () => {
    const turns = new Turns(2);
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
    };
    // two in line (one at a time), the third and fourth beside them
    await Promise.all([1, 2, 3, 4].map(() => turns.take('form', work)));
    expect(most).toBe(3);
    expect(turns.busy).toBe(0);
    // the count is given back: two in line again
    let again = 0;
    let mostAgain = 0;
    await Promise.all(
      [1, 2].map(() =>
        turns.take('form', async () => {
          again++;
          mostAgain = Math.max(mostAgain, again);
          await tick();
          again--;
        }),
      ),
    );
    expect(mostAgain).toBe(1);
  });
});
