import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { healthRoutes } from './routes.js';

/** `GET /health`. */
export async function registerHealth(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(healthRoutes(context));
}
