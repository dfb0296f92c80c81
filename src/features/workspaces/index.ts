import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { workspaceRoutes } from './routes.js';

/** Workspaces, their members and roles (API.md §14). */
export async function registerWorkspaces(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(workspaceRoutes(context));
}
