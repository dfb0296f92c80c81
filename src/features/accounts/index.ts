import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { passwordRoutes } from './passwords.js';
import { accountRoutes } from './routes.js';

export { sessionCredentials } from './credentials.js';

/** Sign-up, log-in, log-out, `/auth/me`, passwords: change and reset (API.md §2). */
export async function registerAccounts(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(accountRoutes(context));
  await app.register(passwordRoutes(context));
}
