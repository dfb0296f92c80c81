import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { EventRecorder } from './commands.js';
import { analyticsRoutes } from './routes.js';

/** Views and starts reported by form pages, and the counters (API.md §8). */
export async function registerAnalytics(app: FastifyInstance, context: AppContext): Promise<EventRecorder> {
  const events = new EventRecorder(context);
  await app.register(analyticsRoutes(context, events));
  // the views queued behind the pages' answers are stored before the database closes
  app.addHook('onClose', async () => events.drain());
  return events;
}
