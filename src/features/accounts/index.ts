import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { CredentialLimits } from './limits.js';
import type { AccountAccessLister } from './notices.js';
import { passwordRoutes } from './passwords.js';
import { accountRoutes } from './routes.js';

export { sessionCredentials } from './credentials.js';
export type { AccountAccess, AccountAccessLister } from './notices.js';

export interface AccountsOptions {
  /** The user's API keys and webhooks, for the mail after a password is set (built by app.ts). */
  accessOf: AccountAccessLister;
}

/** Sign-up, log-in, log-out, `/auth/me`, passwords: change and reset (API.md §2). */
export async function registerAccounts(
  app: FastifyInstance,
  context: AppContext,
  options: AccountsOptions,
): Promise<void> {
  // one set of counters for every route that takes a credential (limits.ts)
  const limits = new CredentialLimits(context);
  await app.register(accountRoutes(context, limits));
  await app.register(passwordRoutes(context, limits, options.accessOf));
}
