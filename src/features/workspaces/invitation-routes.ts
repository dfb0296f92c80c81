import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mayDo, roleTooLow } from '../../platform/access.js';
import { actorOf } from '../../platform/audit.js';
import { requireSession } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { linkOrigin } from '../../platform/http/link-origin.js';
import { ListOf, noBody, problems, SECURITY } from '../../platform/http/schemas.js';
import { nowIso } from '../../platform/time.js';
import { memberOrThrow } from './commands.js';
import {
  acceptInvitation,
  type InvitationLimits,
  invite,
  previewInvitation,
  revokeInvitation,
} from './invitations.js';
import { presentInvitation, presentWorkspace } from './presenter.js';
import { listPendingInvitations } from './repo.js';
import { workspaceIdOf } from './routes.js';
import {
  AcceptBody,
  AcceptedOut,
  InvitationBody,
  InvitationOut,
  InvitationParams,
  InvitationPreviewOut,
  WorkspaceParams,
} from './schemas.js';

/** Invitations (API.md §14): sessions only, like every workspace route. */
export const invitationRoutes =
  (context: AppContext, limits: InvitationLimits): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { config, database } = context;
    const tags = ['workspaces'];

    app.post(
      '/workspaces/:id/invitations',
      {
        schema: {
          tags,
          summary: 'Invite an address with a role (admins; owners to invite an owner): a link is mailed',
          description:
            'The link (`/app/invite?token=…`) works once, for 7 days, for a session of the invited address. Inviting an address again replaces its pending invitation and mails a new link.',
          operationId: 'createInvitation',
          security: SECURITY.session,
          params: WorkspaceParams,
          body: InvitationBody,
          response: { 201: InvitationOut, ...problems(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request, reply) => {
        const actor = actorOf(requireSession(request));
        const invitation = await invite(context, limits, actor, {
          workspaceId: workspaceIdOf(request.params.id),
          email: request.body.email,
          role: request.body.role,
          linkBase: linkOrigin(request, config),
        });
        return reply.status(201).send(presentInvitation(invitation));
      },
    );

    app.get(
      '/workspaces/:id/invitations',
      {
        schema: {
          tags,
          summary: "A workspace's pending invitations, newest first (admins)",
          operationId: 'listInvitations',
          security: SECURITY.session,
          params: WorkspaceParams,
          response: { 200: ListOf(InvitationOut), ...problems(401, 403, 404) },
        },
      },
      async (request) => {
        const { userId } = requireSession(request);
        const id = workspaceIdOf(request.params.id);
        const member = await memberOrThrow(database.db, id, userId);
        if (!mayDo(member.role, 'manageAccess')) throw roleTooLow(member.role, 'manageAccess');
        const rows = await listPendingInvitations(database.db, id, nowIso());
        return { data: rows.map(presentInvitation), nextCursor: null };
      },
    );

    app.delete(
      '/workspaces/:id/invitations/:invitationId',
      {
        schema: {
          tags,
          summary: 'Revoke a pending invitation (admins): its link stops working',
          operationId: 'revokeInvitation',
          security: SECURITY.session,
          params: InvitationParams,
          response: { 204: noBody('Revoked'), ...problems(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const actor = actorOf(requireSession(request));
        await revokeInvitation(context, actor, workspaceIdOf(request.params.id), request.params.invitationId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/invitations/preview',
      {
        schema: {
          tags,
          summary:
            "What an invitation link offers, before accepting: the workspace's name, the role, the invited address",
          description:
            'For the holder of the link, signed in or not (the invitation page shows it before asking to log in). An unknown, used, revoked or expired token is 400 `invalid_token`. Rate-limited per client address like accepting.',
          operationId: 'previewInvitation',
          security: SECURITY.optional,
          body: AcceptBody,
          response: { 200: InvitationPreviewOut, ...problems(400, 429) },
        },
      },
      async (request) => {
        await limits.accepting(request.ip);
        return previewInvitation(context, request.body.token);
      },
    );

    app.post(
      '/invitations/accept',
      {
        schema: {
          tags,
          summary: "Accept an invitation with its link's token (a session of the invited address)",
          operationId: 'acceptInvitation',
          security: SECURITY.session,
          body: AcceptBody,
          response: { 200: AcceptedOut, ...problems(400, 401, 403, 409, 429) },
        },
      },
      async (request) => {
        const actor = actorOf(requireSession(request));
        await limits.accepting(request.ip);
        const { workspace, role } = await acceptInvitation(context, actor, request.body.token);
        return { workspace: presentWorkspace({ ...workspace, role }), role };
      },
    );
  };
