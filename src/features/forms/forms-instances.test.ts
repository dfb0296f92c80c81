import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstancesOnOneDatabase, type TestApp } from '../../../test/support/app.js';
import { createForm, signup } from '../../../test/support/factories.js';

/**
 * API.md §5.3: a PUT without `If-Match` is applied on top of whatever won the race; only a stale
 * `If-Match` is 412. Concurrent PUTs of one form through two instances on one PostgreSQL
 * database (each process takes its own one at a time; across them, the version check and a
 * retry a little later each time).
 */
describe.runIf(process.env.DATABASE_URL)('a form changed through two instances at once', () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const started = await startInstancesOnOneDatabase(2);
    [a, b] = started.instances as [TestApp, TestApp];
    close = started.close;
  });
  afterAll(() => close?.());

  it('applies every PUT without If-Match, each with its own version', async () => {
    const owner = await signup(a);
    const form = await createForm(a, owner.token);
    const count = 16;
    const responses = await Promise.all(
      Array.from({ length: count }, (_, n) =>
        (n % 2 === 0 ? a : b).request({
          method: 'PUT',
          url: `/forms/${form.id}`,
          auth: owner.token,
          body: { title: `From ${n % 2 === 0 ? 'a' : 'b'} ${n}` },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(count).fill(200));
    expect(responses.map((response) => response.body.version).sort((x, y) => x - y)).toEqual(
      Array.from({ length: count }, (_, n) => n + 2),
    );
    const read = await b.request({ method: 'GET', url: `/forms/${form.id}`, auth: owner.token });
    expect(read.body.version).toBe(count + 1);
  });
});
