import type { AppContext } from '../../platform/context.js';
import { createRateLimiter, type RateLimiter, rateLimited } from '../../platform/rate-limit.js';

/** How long a failed log-in marks its client address as having failed (see `CredentialLimits`). */
export const RECENT_FAILURE_SECONDS = 15 * 60;
/** Reset mails to one account in an hour, at most. */
export const RESET_MAILS_PER_HOUR = 5;

/**
 * How often credentials may be tried (API.md §2). Built once by `registerAccounts` and handed to
 * every route that takes a credential: counters in memory (no Redis) are per limiter object, so
 * limiters built per route would each count apart, and sign-up would not slow log-in.
 *
 * - Every attempt (sign-up, log-in, reset request and confirmation) counts against the client
 *   address: RATE_LIMIT_AUTH a minute.
 * - Only failed log-ins count against the account asked for, RATE_LIMIT_AUTH a minute: guesses
 *   from anywhere cannot use up the owner's own log-ins. Once an account has had that many, a
 *   client that failed a log-in (at any account) in the last RECENT_FAILURE_SECONDS waits for the
 *   account's window to end; a client with no recent failure still has its password checked, so
 *   the owner gets in while someone guesses. Each new guessing address has one guess at a locked
 *   account per RECENT_FAILURE_SECONDS, where it had RATE_LIMIT_AUTH a minute.
 */
export class CredentialLimits {
  /** Every attempt with a credential, per client address. */
  readonly attemptsByAddress: RateLimiter;
  /** Password changes by one signed-in user: a stolen session guessing the current password. */
  readonly passwordChangesByUser: RateLimiter;
  /** Reset requests per address asked for (apart from log-in failures: asking locks no one out). */
  readonly resetRequestsByAccount: RateLimiter;
  /** Reset mails to one account: a few an hour, so that no one is flooded with them. */
  readonly resetMailsByAccount: RateLimiter;
  private readonly failuresByAccount: RateLimiter;
  private readonly failuresByAddress: RateLimiter;

  constructor({ config, rateLimitStore }: Pick<AppContext, 'config' | 'rateLimitStore'>) {
    const perMinute = (name: string) =>
      createRateLimiter(rateLimitStore, { name, points: config.rateLimitAuth, windowSeconds: 60 });
    this.attemptsByAddress = perMinute('auth-ip');
    this.passwordChangesByUser = perMinute('password-change');
    this.resetRequestsByAccount = perMinute('password-reset-email');
    this.failuresByAccount = perMinute('login-failures-email');
    // one failure is enough to mark the address: the points only bound the counter
    this.failuresByAddress = createRateLimiter(rateLimitStore, {
      name: 'login-failures-ip',
      points: 1,
      windowSeconds: RECENT_FAILURE_SECONDS,
    });
    this.resetMailsByAccount = createRateLimiter(rateLimitStore, {
      name: 'password-reset-mail',
      points: RESET_MAILS_PER_HOUR,
      windowSeconds: 3600,
    });
  }

  /**
   * Before a log-in's password is checked: counts the attempt against the client address, and
   * refuses (429) a client that failed recently while the account has had too many failures.
   */
  async beforeLogIn(emailKey: string, address: string): Promise<void> {
    await this.attemptsByAddress.consume(address);
    const account = await this.failuresByAccount.peek(emailKey);
    if (account.remaining > 0) return;
    const client = await this.failuresByAddress.peek(address);
    if (client.remaining < client.limit) throw rateLimited(account);
  }

  /** A wrong password (or an unknown account): counted against both. */
  async logInFailed(emailKey: string, address: string): Promise<void> {
    await Promise.all([this.failuresByAccount.record(emailKey), this.failuresByAddress.record(address)]);
  }
}
