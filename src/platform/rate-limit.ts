import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { Problem } from './problem.js';

/**
 * Fixed-window counters by key, in memory or in Redis (shared by several instances).
 * When Redis is unreachable the limiter falls back to memory rather than refusing
 * traffic: a rate limit is protection, not a reason to go down.
 */
export interface RateLimiter {
  /** Counts one hit against `key`; throws a 429 problem once the window's points are spent. */
  consume(key: string): Promise<RateLimitState>;
  /** Counts one hit against `key` and never throws: for counting what happened (a failure), not gating it. */
  record(key: string): Promise<RateLimitState>;
  /** Where `key` stands in its window, counting nothing (`remaining` 0: spent). */
  peek(key: string): Promise<RateLimitState>;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimitStore {
  redis: Redis | undefined;
  close(): Promise<void>;
}

const REDIS_COMMAND_TIMEOUT_MS = 250;

export async function openRateLimitStore(redisUrl: string | undefined): Promise<RateLimitStore> {
  if (!redisUrl) return { redis: undefined, close: async () => {} };
  const { Redis } = await import('ioredis');
  // No offline queue: while Redis is down, calls fail fast and the memory fallback answers.
  const redis = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    // A Redis that stops answering (overloaded, paused, a network cut) would hold every
    // submission for as long: past this, the memory fallback answers instead.
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
  });
  redis.on('error', () => {});
  return {
    redis,
    close: async () => {
      redis.disconnect();
    },
  };
}

export function createRateLimiter(
  store: RateLimitStore,
  options: { name: string; points: number; windowSeconds: number },
): RateLimiter {
  const base = {
    keyPrefix: `intake:${options.name}`,
    points: options.points,
    duration: options.windowSeconds,
  };
  const memory = new RateLimiterMemory(base);
  const limiter = store.redis
    ? new RateLimiterRedis({ ...base, storeClient: store.redis, insuranceLimiter: memory })
    : memory;

  const state = (result: RateLimiterRes): RateLimitState => ({
    limit: options.points,
    remaining: Math.max(0, result.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
  });

  const hit = async (key: string): Promise<{ state: RateLimitState; spent: boolean }> => {
    try {
      return { state: state(await limiter.consume(key)), spent: false };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { state: state(rejection), spent: true };
    }
  };

  return {
    async consume(key) {
      const result = await hit(key);
      if (result.spent) throw rateLimited(result.state);
      return result.state;
    },
    async record(key) {
      return (await hit(key)).state;
    },
    async peek(key) {
      const current = await limiter.get(key);
      if (!current)
        return { limit: options.points, remaining: options.points, resetSeconds: options.windowSeconds };
      return state(current);
    },
  };
}

/** The 429 problem of a spent window, with Retry-After and the RateLimit headers. */
export function rateLimited(limited: RateLimitState): Problem {
  return new Problem(429, 'rate_limited', `Too many requests; retry in ${limited.resetSeconds} s`, {
    headers: { 'retry-after': String(limited.resetSeconds), ...rateLimitHeaders(limited) },
  });
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
  };
}
