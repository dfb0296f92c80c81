import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { environmentRoutes } from './routes.js';

/** A user's environments (API.md §3). */
export async function registerEnvironments(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(environmentRoutes(context));
}
