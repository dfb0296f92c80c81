import type { AppContext } from '../../platform/context.js';
import { createRateLimiter } from '../../platform/rate-limit.js';

/**
 * How often credentials may be tried (API.md §2): per client address and per account (the
 * e-mail address asked for), RATE_LIMIT_AUTH a minute each, shared by log-in, sign-up and the
 * password routes, so that one cannot be used to get round the other.
 */
export function authLimiters({ config, rateLimitStore }: Pick<AppContext, 'config' | 'rateLimitStore'>) {
  const perMinute = (name: string) =>
    createRateLimiter(rateLimitStore, { name, points: config.rateLimitAuth, windowSeconds: 60 });
  return {
    byAddress: perMinute('auth-ip'),
    byAccount: perMinute('auth-email'),
    /** Password changes by one signed-in user: a stolen session guessing the current password. */
    byUser: perMinute('password-change'),
  };
}
