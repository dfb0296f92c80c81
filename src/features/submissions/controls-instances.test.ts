import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Response, startInstancesOnOneDatabase, type TestApp } from '../../../test/support/app.js';
import { storedCount } from '../../../test/support/assertions.js';
import { createForm, signup } from '../../../test/support/factories.js';

/**
 * API.md §15: `maxSubmissions` is never exceeded, and one address sends one submission, even
 * under concurrent submissions to several instances: three on one PostgreSQL schema, each with
 * its own batch writer, the count and the address taken in each batch's transaction (a row lock
 * and a unique key the instances meet in). SQLite serves one process.
 */
describe.runIf(process.env.DATABASE_URL)('response controls across three instances', () => {
  let instances: TestApp[] = [];
  let close: () => Promise<void>;

  beforeAll(async () => {
    const started = await startInstancesOnOneDatabase(3, {
      rateLimitPublic: 1_000_000,
      // the same master key on each, as the README asks of several instances: address hashes agree
      masterKey: Buffer.alloc(32, 9),
    });
    instances = started.instances;
    close = started.close;
  });
  afterAll(() => close?.());

  const submit = (i: number, formId: string, email: string): Promise<Response> =>
    (instances[i % 3] as TestApp).request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { name: 'Ada', email } },
    });

  const statuses = (responses: Response[]) =>
    responses.reduce<Record<string, number>>((counts, response) => {
      const name = response.status === 201 ? '201' : `${response.status} ${response.body?.code}`;
      counts[name] = (counts[name] ?? 0) + 1;
      return counts;
    }, {});

  it('accepts exactly 10 of 50 concurrent submissions spread over three instances', async () => {
    const [a] = instances as [TestApp];
    const owner = await signup(a);
    const form = await createForm(a, owner.token, { status: 'live', access: { maxSubmissions: 10 } });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => submit(i, form.id, `person${i}@example.com`)),
    );
    expect(statuses(responses)).toEqual({ '201': 10, '403 form_closed': 40 });
    expect(await storedCount(a, form.id)).toBe(10);
  });

  it('takes one submission of one address sent to three instances at once', async () => {
    const [a] = instances as [TestApp];
    const owner = await signup(a);
    const form = await createForm(a, owner.token, {
      status: 'live',
      access: { oncePer: 'email', emailField: 'email' },
    });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        submit(i, form.id, i % 2 ? 'same@example.com' : 'SAME@example.com'),
      ),
    );
    expect(statuses(responses)).toEqual({ '201': 1, '409 already_submitted': 29 });
    expect(await storedCount(a, form.id)).toBe(1);
  });
});
