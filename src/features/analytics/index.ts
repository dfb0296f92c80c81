import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { analyticsRoutes } from './routes.js';

/** Views and starts reported by form pages, and the counters (API.md §8). */
export async function registerAnalytics(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(analyticsRoutes(context));
}
