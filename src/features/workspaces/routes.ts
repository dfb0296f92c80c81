import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/audit.js';
import { requireSession } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { ListOf, noBody, problems, SECURITY } from '../../platform/http/schemas.js';
import { notFound } from '../../platform/problem.js';
import {
  changeMemberRole,
  createWorkspace,
  deleteWorkspaceBy,
  memberOrThrow,
  removeMember,
  renameWorkspaceBy,
} from './commands.js';
import { presentMember, presentWorkspace } from './presenter.js';
import { listMembers, listWorkspacesOf } from './repo.js';
import {
  MemberOut,
  MemberParams,
  RoleBody,
  WorkspaceBody,
  WorkspaceOut,
  WorkspaceParams,
} from './schemas.js';

const WORKSPACE_ID = /^wsp_[0-9a-z]{26}$/;

/** A workspace id in a path: a malformed one is 404, like one named in `X-Intake-Workspace`. */
export function workspaceIdOf(id: string): string {
  if (!WORKSPACE_ID.test(id)) throw notFound(`No workspace ${id.slice(0, 100)}`);
  return id;
}

/** The workspaces routes (API.md §14): sessions only, keys never manage workspaces. */
export const workspaceRoutes =
  ({ database }: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['workspaces'];

    app.get(
      '/workspaces',
      {
        schema: {
          tags,
          summary: 'List the workspaces you are a member of, with your role in each',
          operationId: 'listWorkspaces',
          security: SECURITY.session,
          response: { 200: ListOf(WorkspaceOut), ...problems(401, 403) },
        },
      },
      async (request) => {
        const { userId } = requireSession(request);
        const rows = await listWorkspacesOf(database.db, userId);
        return { data: rows.map(presentWorkspace), nextCursor: null };
      },
    );

    app.post(
      '/workspaces',
      {
        schema: {
          tags,
          summary: 'Create a workspace (you are its owner; development and production are made with it)',
          operationId: 'createWorkspace',
          security: SECURITY.session,
          body: WorkspaceBody,
          response: { 201: WorkspaceOut, ...problems(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const created = await createWorkspace(
          database,
          actorOf(requireSession(request)),
          request.body.name.trim(),
        );
        return reply.status(201).send(presentWorkspace(created));
      },
    );

    app.patch(
      '/workspaces/:id',
      {
        schema: {
          tags,
          summary: 'Rename a workspace (owners)',
          operationId: 'renameWorkspace',
          security: SECURITY.session,
          params: WorkspaceParams,
          body: WorkspaceBody,
          response: { 200: WorkspaceOut, ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const actor = actorOf(requireSession(request));
        const id = workspaceIdOf(request.params.id);
        return presentWorkspace(await renameWorkspaceBy(database, actor, id, request.body.name.trim()));
      },
    );

    app.delete(
      '/workspaces/:id',
      {
        schema: {
          tags,
          summary: 'Delete a workspace (owners; never a personal one, nor one that holds forms or keys)',
          operationId: 'deleteWorkspace',
          security: SECURITY.session,
          params: WorkspaceParams,
          response: { 204: noBody('Deleted'), ...problems(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const actor = actorOf(requireSession(request));
        await deleteWorkspaceBy(database, actor, workspaceIdOf(request.params.id));
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/workspaces/:id/members',
      {
        schema: {
          tags,
          summary: "A workspace's members, by the time they joined",
          operationId: 'listMembers',
          security: SECURITY.session,
          params: WorkspaceParams,
          response: { 200: ListOf(MemberOut), ...problems(401, 403, 404) },
        },
      },
      async (request) => {
        const { userId } = requireSession(request);
        const id = workspaceIdOf(request.params.id);
        await memberOrThrow(database.db, id, userId);
        const rows = await listMembers(database.db, id);
        return { data: rows.map(presentMember), nextCursor: null };
      },
    );

    app.patch(
      '/workspaces/:id/members/:userId',
      {
        schema: {
          tags,
          summary: "Change a member's role (admins; owners for anything about owners)",
          operationId: 'changeMemberRole',
          security: SECURITY.session,
          params: MemberParams,
          body: RoleBody,
          response: { 200: MemberOut, ...problems(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const actor = actorOf(requireSession(request));
        const id = workspaceIdOf(request.params.id);
        const member = await changeMemberRole(database, actor, id, request.params.userId, request.body.role);
        return presentMember(member);
      },
    );

    app.delete(
      '/workspaces/:id/members/:userId',
      {
        schema: {
          tags,
          summary: 'Remove a member (admins), or leave (anyone, themselves)',
          operationId: 'removeMember',
          security: SECURITY.session,
          params: MemberParams,
          response: { 204: noBody('Removed'), ...problems(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const actor = actorOf(requireSession(request));
        await removeMember(database, actor, workspaceIdOf(request.params.id), request.params.userId);
        return reply.status(204).send(null);
      },
    );
  };
