import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mayDo, roleTooLow } from '../../platform/access.js';
import { type AuditEntry, listAudit } from '../../platform/audit.js';
import { requireSession } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { decodeCursor, encodeCursor } from '../../platform/cursor.js';
import { parseBound } from '../../platform/http/bounds.js';
import { ListOf, problems, SECURITY } from '../../platform/http/schemas.js';
import { memberOrThrow } from './commands.js';
import { workspaceIdOf } from './routes.js';
import { AuditEntryOut, AuditQuery, WorkspaceParams } from './schemas.js';

const DEFAULT_LIMIT = 50;

function presentAuditEntry(entry: AuditEntry) {
  return {
    id: entry.id,
    at: entry.at,
    actor: {
      type: entry.actor.type,
      id: entry.actor.id,
      ...(entry.actor.email === null ? {} : { email: entry.actor.email }),
    },
    action: entry.action,
    target: entry.target,
    ip: entry.ip,
  };
}

/** `GET /workspaces/{id}/audit` (API.md §14): admins and owners, newest first, keyset pages. */
export const auditRoutes =
  ({ database }: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/workspaces/:id/audit',
      {
        schema: {
          tags: ['workspaces'],
          summary: "A workspace's audit log, newest first (admins)",
          description:
            'Every change by a member or a key (forms, responses deleted and notes, keys, webhooks, environments, members, invitations, the workspace), written with the change. Filters: `actor` (a user or key id), `action` (an action, or a kind of target such as `form`), `from`/`to` (inclusive).',
          operationId: 'listAudit',
          security: SECURITY.session,
          params: WorkspaceParams,
          querystring: AuditQuery,
          response: { 200: ListOf(AuditEntryOut), ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { userId } = requireSession(request);
        const workspaceId = workspaceIdOf(request.params.id);
        const member = await memberOrThrow(database.db, workspaceId, userId);
        if (!mayDo(member.role, 'manageAccess')) throw roleTooLow(member.role, 'manageAccess');
        const { query } = request;
        const limit = query.limit ?? DEFAULT_LIMIT;
        const after = decodeCursor(query.cursor);
        const rows = await listAudit(database.db, {
          workspaceId,
          actor: query.actor,
          action: query.action,
          from: parseBound(query.from, 'from'),
          to: parseBound(query.to, 'to'),
          after: after && { at: after.createdAt, id: after.id },
          limit,
        });
        const page = rows.slice(0, limit);
        const last = page.at(-1);
        return {
          data: page.map(presentAuditEntry),
          nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.at, id: last.id }) : null,
        };
      },
    );
  };
