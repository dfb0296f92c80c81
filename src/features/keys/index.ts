import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { keyRoutes } from './routes.js';

export { keyCredentials } from './credentials.js';

/** Secret and publishable API keys (API.md §4). */
export async function registerKeys(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(keyRoutes(context));
}
