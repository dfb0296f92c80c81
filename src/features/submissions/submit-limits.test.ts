import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem, storedCount } from '../../../test/support/assertions.js';
import { createForm, createKey, signup, type TestUser } from '../../../test/support/factories.js';

/**
 * API.md §6.1 limits: anonymous submissions rate-limited per client IP, keyed ones per
 * user (counters in memory, or in Redis when REDIS_URL is set), and the monthly quota of
 * accepted submissions per user and environment, enforced atomically.
 */

/**
 * The Redis the suite runs against: TEST_REDIS_URL, one at 127.0.0.1:6379, or one started for the run
 * (test/support/redis-setup.ts); null on a machine without Redis, where the Redis half is skipped.
 */
const REDIS_URL = inject('testRedisUrl') ?? undefined;

/**
 * An address of its own for each call: one after the other within a file (two random ones met
 * once, in CI: a keyed test's address found the budget an earlier test had spent), from a random
 * start in 198.18.0.0/15 so runs sharing one Redis do not meet either.
 */
let lastIp = randomInt(131_072);
const uniqueIp = () => {
  lastIp = (lastIp + 1) % 131_072;
  return `198.${18 + (lastIp >> 16)}.${(lastIp >> 8) & 255}.${lastIp & 255}`;
};
const VALID = { answers: { name: 'Ada', email: 'ada@example.com' } };

function submit(
  app: TestApp,
  formId: string,
  options: { ip?: string; auth?: string; body?: unknown } = {},
): Promise<Response> {
  return app.request({
    method: 'POST',
    url: `/forms/${formId}/submit`,
    body: options.body ?? VALID,
    auth: options.auth,
    headers: options.ip ? { 'x-forwarded-for': options.ip } : {},
  });
}

function expectRateLimitHeaders(response: Response, limit: number, remaining: number): void {
  expect(response.headers['ratelimit-limit']).toBe(String(limit));
  expect(response.headers['ratelimit-remaining']).toBe(String(remaining));
  const reset = Number(response.headers['ratelimit-reset']);
  expect(Number.isInteger(reset) && reset >= 1 && reset <= 60, `reset ${reset}`).toBe(true);
}

function expectLimited(response: Response, code: 'rate_limited' | 'quota_exceeded', limit: number) {
  expectProblem(response, 429, code);
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1, `retry-after ${retryAfter}`).toBe(true);
  expect(response.headers['ratelimit-limit']).toBe(String(limit));
  expect(response.headers['ratelimit-remaining']).toBe('0');
  expect(response.headers['ratelimit-reset']).toBe(String(retryAfter));
  return retryAfter;
}

const rateLimits = (redisUrl: string | undefined) => () => {
  let app: TestApp;
  let redis: Redis | undefined;
  const owner = {} as TestUser;
  let formId: string;
  const redisKeys: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ rateLimitPublic: 3, rateLimitAuthenticated: 3, trustProxy: 1, redisUrl });
    if (redisUrl) redis = new Redis(redisUrl);
    Object.assign(owner, await signup(app));
    formId = (await createForm(app, owner.token, { status: 'live' })).id;
  });
  afterAll(async () => {
    if (redis) {
      if (redisKeys.length > 0) await redis.del(...redisKeys);
      redis.disconnect();
    }
    await app.close();
  });

  it('anonymous: 3 a minute per client IP, the 4th is 429 rate_limited with Retry-After and RateLimit-*', async () => {
    const ip = uniqueIp();
    redisKeys.push(`intake:submit-ip:${ip}`);
    for (const remaining of [2, 1, 0]) {
      const response = await submit(app, formId, { ip });
      expect(response.status, response.text).toBe(201);
      expectRateLimitHeaders(response, 3, remaining);
    }
    const limited = await submit(app, formId, { ip });
    const retryAfter = expectLimited(limited, 'rate_limited', 3);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // another address has its own budget
    const elsewhere = await submit(app, formId, { ip: uniqueIp() });
    expect(elsewhere.status, elsewhere.text).toBe(201);
    expectRateLimitHeaders(elsewhere, 3, 2);
  });

  it('a refused submission (invalid) still counts against the rate limit', async () => {
    const ip = uniqueIp();
    redisKeys.push(`intake:submit-ip:${ip}`);
    for (let i = 0; i < 3; i++) {
      expectProblem(await submit(app, formId, { ip, body: { answers: {} } }), 400, 'validation_failed');
    }
    expectLimited(await submit(app, formId, { ip }), 'rate_limited', 3);
  });

  it('keyed submissions are counted per user, across all of its keys, and not per IP', async () => {
    const user = await signup(app);
    redisKeys.push(`intake:submit-user:${user.id}`);
    const form = await createForm(app, user.token, { status: 'live' });
    const publishable = await createKey(app, user, 'publishable');
    const secret = await createKey(app, user, 'secret');
    const ip = uniqueIp();
    redisKeys.push(`intake:submit-ip:${ip}`);
    const first = await submit(app, form.id, { auth: publishable.key, ip });
    expect(first.status, first.text).toBe(201);
    expectRateLimitHeaders(first, 3, 2);
    expect((await submit(app, form.id, { auth: secret.key, ip: uniqueIp() })).status).toBe(201);
    expect((await submit(app, form.id, { auth: publishable.key, ip: uniqueIp() })).status).toBe(201);
    // a fourth from yet another address: the user's budget is spent
    expectLimited(await submit(app, form.id, { auth: secret.key, ip: uniqueIp() }), 'rate_limited', 3);
    expect(await storedCount(app, form.id)).toBe(3);

    // the address that sent keyed submissions still has its whole anonymous budget
    const anonymous = await submit(app, form.id, { ip });
    expect(anonymous.status, anonymous.text).toBe(201);
    expectRateLimitHeaders(anonymous, 3, 2);
    // and another user's keys have their own
    const other = await signup(app);
    redisKeys.push(`intake:submit-user:${other.id}`);
    const otherForm = await createForm(app, other.token, { status: 'live' });
    const otherKey = await createKey(app, other, 'secret');
    const response = await submit(app, otherForm.id, { auth: otherKey.key, ip: uniqueIp() });
    expect(response.status, response.text).toBe(201);
    expectRateLimitHeaders(response, 3, 2);
  });

  if (redisUrl) {
    it('the counters live in Redis, shared by every instance', async () => {
      const ip = uniqueIp();
      const key = `intake:submit-ip:${ip}`;
      redisKeys.push(key);
      expect(await redis?.exists(key)).toBe(0);
      expect((await submit(app, formId, { ip })).status).toBe(201);
      expect((await submit(app, formId, { ip })).status).toBe(201);
      expect(await redis?.exists(key)).toBe(1);
      expect(Number(await redis?.get(key))).toBe(2);
      const ttl = (await redis?.pttl(key)) ?? 0;
      expect(ttl > 0 && ttl <= 60_000, `ttl ${ttl}`).toBe(true);
      const prefixed = await redis?.keys('intake:submit-*');
      expect(prefixed).toEqual(expect.arrayContaining([key]));

      // a second instance on the same Redis sees the same counter
      const second = await createTestApp({ rateLimitPublic: 3, trustProxy: 1, redisUrl });
      try {
        const user = await signup(second);
        const form = await createForm(second, user.token, { status: 'live' });
        const third = await submit(second, form.id, { ip });
        expect(third.status, third.text).toBe(201);
        expectRateLimitHeaders(third, 3, 0);
        expectLimited(await submit(second, form.id, { ip }), 'rate_limited', 3);
        expectLimited(await submit(app, formId, { ip }), 'rate_limited', 3);
      } finally {
        await second.close();
      }
    });
  }
};
describe('rate limits, counters in memory', rateLimits(undefined));
describe.skipIf(REDIS_URL === undefined)('rate limits, counters in Redis', rateLimits(REDIS_URL));

describe('monthly quota', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({
      monthlyQuota: 3,
      rateLimitPublic: 1_000_000,
      rateLimitAuthenticated: 1_000_000,
    });
  });
  afterAll(async () => {
    await app.close();
  });

  async function usage(user: TestUser, environment = 'development'): Promise<number | undefined> {
    const row = await app.app.intake.database.db
      .selectFrom('usage')
      .select('submissions')
      .where('workspace_id', '=', user.workspaceId)
      .where('environment', '=', environment)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.submissions);
  }

  it('the 4th accepted submission of the month is 429 quota_exceeded with Retry-After and RateLimit-*', async () => {
    const owner = await signup(app);
    const form = await createForm(app, owner.token, { status: 'live' });
    for (let i = 0; i < 3; i++) expect((await submit(app, form.id)).status).toBe(201);
    const refused = await submit(app, form.id);
    const retryAfter = expectLimited(refused, 'quota_exceeded', 3);
    // the quota renews at the start of the next calendar month (UTC)
    const now = new Date();
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const expected = Math.ceil((nextMonth - now.getTime()) / 1000);
    expect(Math.abs(retryAfter - expected)).toBeLessThanOrEqual(5);
    expect(await storedCount(app, form.id)).toBe(3);
    expect(await usage(owner)).toBe(3);
  });

  it('counts per user and environment: keyed and anonymous together, across forms', async () => {
    const owner = await signup(app);
    const a = await createForm(app, owner.token, { status: 'live' });
    const b = await createForm(app, owner.token, { status: 'active' });
    const secret = await createKey(app, owner, 'secret');
    expect((await submit(app, a.id)).status).toBe(201);
    expect((await submit(app, b.id, { auth: secret.key })).status).toBe(201);
    expect((await submit(app, a.id, { auth: secret.key })).status).toBe(201);
    expectLimited(await submit(app, b.id, { auth: secret.key }), 'quota_exceeded', 3);
    expectLimited(await submit(app, a.id), 'quota_exceeded', 3);

    // production has a quota of its own, and so has every other user
    const production = await createForm(app, owner.token, { status: 'live', environment: 'production' });
    expect((await submit(app, production.id)).status).toBe(201);
    expect(await usage(owner, 'production')).toBe(1);
    const other = await signup(app);
    const otherForm = await createForm(app, other.token, { status: 'live' });
    expect((await submit(app, otherForm.id)).status).toBe(201);
  });

  it('flagged and quarantined spam, rejected spam and invalid submissions do not count', async () => {
    const owner = await signup(app);
    const flag = await createForm(app, owner.token, {
      status: 'live',
      spamProtection: { honeypot: { field: 'hp' }, action: 'flag' },
    });
    const quarantine = await createForm(app, owner.token, {
      status: 'live',
      spamProtection: { honeypot: { field: 'hp' }, action: 'quarantine' },
    });
    const reject = await createForm(app, owner.token, {
      status: 'live',
      spamProtection: { honeypot: { field: 'hp' }, action: 'reject' },
    });
    const spam = { answers: { ...VALID.answers, hp: 'bot' } };
    for (let i = 0; i < 3; i++) {
      const flagged = await submit(app, flag.id, { body: spam });
      expect(flagged.status, flagged.text).toBe(201);
      expect(flagged.body.status).toBe('flagged');
      const quarantined = await submit(app, quarantine.id, { body: spam });
      expect(quarantined.body.status).toBe('quarantined');
      expectProblem(await submit(app, reject.id, { body: spam }), 400, 'spam_detected');
      expectProblem(await submit(app, flag.id, { body: { answers: {} } }), 400, 'validation_failed');
    }
    expect(await usage(owner)).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const accepted = await submit(app, flag.id);
      expect(accepted.status, accepted.text).toBe(201);
      expect(accepted.body.status).toBe('accepted');
    }
    expectLimited(await submit(app, flag.id), 'quota_exceeded', 3);
    expect(await usage(owner)).toBe(3);
  });

  it('50 concurrent submissions at quota − 1: exactly one is accepted', async () => {
    const owner = await signup(app);
    const form = await createForm(app, owner.token, { status: 'live' });
    for (let i = 0; i < 2; i++) expect((await submit(app, form.id)).status).toBe(201);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        submit(app, form.id, { body: { answers: { name: `n${i}`, email: 'ada@example.com' } } }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(49);
    for (const response of responses) {
      if (response.status === 429) expect(response.body.code).toBe('quota_exceeded');
    }
    expect(await storedCount(app, form.id)).toBe(3);
    expect(await usage(owner)).toBe(3);
  });

  it('a quota of 0 means unlimited', async () => {
    const unlimited = await createTestApp({ monthlyQuota: 0, rateLimitPublic: 1_000_000 });
    try {
      const owner = await signup(unlimited);
      const form = await createForm(unlimited, owner.token, { status: 'live' });
      for (let i = 0; i < 5; i++) expect((await submit(unlimited, form.id)).status).toBe(201);
      expect(await storedCount(unlimited, form.id)).toBe(5);
    } finally {
      await unlimited.close();
    }
  });
});
