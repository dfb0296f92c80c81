import { clientBucket } from '../../platform/client-address.js';
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
 *   from anywhere cannot use up the owner's own log-ins. Once an account has had that many it is
 *   locked for the rest of its window, and then:
 *   - a client that failed a log-in (at any account) in the last RECENT_FAILURE_SECONDS waits;
 *   - a client with no recent failure still has its password checked, so the owner gets in while
 *     someone guesses: one check per client per RECENT_FAILURE_SECONDS (taken before the
 *     password is checked, so a burst of parallel guesses gets one), and at most RATE_LIMIT_AUTH
 *     such checks a minute for the account, whatever the number of clients.
 *   So an account is guessed at most twice RATE_LIMIT_AUTH a minute from the whole Internet, and
 *   its owner is kept out only by someone who fails from more than RATE_LIMIT_AUTH fresh
 *   clients a minute.
 * - A client is its address for IPv4 and its /64 for IPv6 (`clientBucket`): one IPv6 host has
 *   2^64 addresses to pick from.
 */
export class CredentialLimits {
  /** Every attempt with a credential, per client address. */
  private readonly attemptsByAddress: RateLimiter;
  /** Password changes by one signed-in user: a stolen session guessing the current password. */
  readonly passwordChangesByUser: RateLimiter;
  /** Reset requests per address asked for (apart from log-in failures: asking locks no one out). */
  readonly resetRequestsByAccount: RateLimiter;
  /** Reset mails to one account: a few an hour, so that no one is flooded with them. */
  readonly resetMailsByAccount: RateLimiter;
  private readonly failuresByAccount: RateLimiter;
  private readonly failuresByAddress: RateLimiter;
  /** A locked account's checks for clients with no recent failure: one per client… */
  private readonly lockedChecksByAddress: RateLimiter;
  /** …and RATE_LIMIT_AUTH a minute for the account, whatever the number of clients. */
  private readonly lockedChecksByAccount: RateLimiter;

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
    this.lockedChecksByAddress = createRateLimiter(rateLimitStore, {
      name: 'login-locked-checks-ip',
      points: 1,
      windowSeconds: RECENT_FAILURE_SECONDS,
    });
    this.lockedChecksByAccount = perMinute('login-locked-checks-email');
    this.resetMailsByAccount = createRateLimiter(rateLimitStore, {
      name: 'password-reset-mail',
      points: RESET_MAILS_PER_HOUR,
      windowSeconds: 3600,
    });
  }

  /**
   * Before a log-in's password is checked: counts the attempt against the client, and while the
   * account is locked lets through only a client with no recent failure, once, within the
   * account's budget of such checks (see the class's comment); others get 429.
   */
  async beforeLogIn(emailKey: string, address: string): Promise<void> {
    const client = clientBucket(address);
    await this.attemptsByAddress.consume(client);
    const account = await this.failuresByAccount.peek(emailKey);
    if (account.remaining > 0) return;
    const failures = await this.failuresByAddress.peek(client);
    if (failures.remaining < failures.limit) throw rateLimited(account);
    await this.lockedChecksByAccount.consume(emailKey);
    await this.lockedChecksByAddress.consume(client);
  }

  /** A wrong password (or an unknown account): counted against both. */
  async logInFailed(emailKey: string, address: string): Promise<void> {
    await Promise.all([
      this.failuresByAccount.record(emailKey),
      this.failuresByAddress.record(clientBucket(address)),
    ]);
  }

  /** Any other attempt with a credential (sign-up, a reset asked for or confirmed): per client. */
  async attempt(address: string): Promise<void> {
    await this.attemptsByAddress.consume(clientBucket(address));
  }
}
