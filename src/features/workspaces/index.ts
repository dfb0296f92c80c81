import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { auditRoutes } from './audit-routes.js';
import { invitationRoutes } from './invitation-routes.js';
import { InvitationLimits } from './invitations.js';
import { workspaceRoutes } from './routes.js';

/** Workspaces, their members and roles, invitations and the audit log (API.md §14). */
export async function registerWorkspaces(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(workspaceRoutes(context));
  // one set of counters for every invitation route (memory counters are per limiter object)
  await app.register(invitationRoutes(context, new InvitationLimits(context)));
  await app.register(auditRoutes(context));
}
