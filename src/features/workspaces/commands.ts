import { mayDo, type Role, roleTooLow } from '../../platform/access.js';
import { type AuditActor, recordAudit } from '../../platform/audit.js';
import type { Database, Trx } from '../../platform/db/database.js';
import { lockRow } from '../../platform/db/dialect.js';
import { newId } from '../../platform/ids.js';
import { conflict, forbidden, notFound, type Problem } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { insertDefaultEnvironments } from '../environments/repo.js';
import {
  countOwners,
  countWorkspaceContents,
  deleteMember,
  deleteWorkspace,
  findMember,
  findWorkspaceOf,
  insertMember,
  insertWorkspace,
  renameWorkspace,
  type StoredWorkspace,
  updateRole,
} from './repo.js';

/**
 * Workspaces and their members (API.md §14), for the routes and the pages. Each command reads
 * the caller's membership of the workspace it names, fresh, and judges it by the role table
 * (`platform/access.ts`); a workspace the caller is no member of answers as an unknown one.
 */

export const PERSONAL_WORKSPACE_NAME = 'Personal';

/** The personal workspace made with an account: its owner, `development` and `production`. */
export async function createPersonalWorkspace(trx: Trx, userId: string, createdAt: string): Promise<string> {
  const workspace = { id: newId('wsp'), name: PERSONAL_WORKSPACE_NAME, personal: true, createdAt };
  await insertWorkspace(trx, workspace);
  await insertMember(trx, { workspaceId: workspace.id, userId, role: 'owner', joinedAt: createdAt });
  await insertDefaultEnvironments(trx, workspace.id, createdAt);
  return workspace.id;
}

/** A shared workspace, its caller the owner, with `development` and `production`. */
export async function createWorkspace(
  database: Database,
  actor: AuditActor,
  name: string,
): Promise<StoredWorkspace & { role: Role }> {
  const createdAt = nowIso();
  const workspace = { id: newId('wsp'), name, personal: false, createdAt };
  await database.transaction(async (trx) => {
    await insertWorkspace(trx, workspace);
    await insertMember(trx, {
      workspaceId: workspace.id,
      userId: actor.id,
      role: 'owner',
      joinedAt: createdAt,
    });
    await insertDefaultEnvironments(trx, workspace.id, createdAt);
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actor,
      action: 'workspace.created',
      target: { type: 'workspace', id: workspace.id },
    });
  });
  return { ...workspace, role: 'owner' };
}

/** Not a member (or no such workspace): the same 403 as a workspace named in the header. */
export function notAMember(workspaceId: string): Problem {
  return forbidden(`You are not a member of the workspace ${workspaceId}`);
}

/** The workspace with the caller's role in it, when they are a member; else 403. */
export async function memberOrThrow(db: Database['db'] | Trx, workspaceId: string, userId: string) {
  const workspace = await findWorkspaceOf(db, workspaceId, userId);
  if (!workspace) throw notAMember(workspaceId);
  return workspace;
}

export async function renameWorkspaceBy(
  database: Database,
  actor: AuditActor,
  workspaceId: string,
  name: string,
): Promise<StoredWorkspace & { role: Role }> {
  const workspace = await memberOrThrow(database.db, workspaceId, actor.id);
  if (!mayDo(workspace.role, 'own')) throw roleTooLow(workspace.role, 'own');
  await database.transaction(async (trx) => {
    await renameWorkspace(trx, workspaceId, name);
    await recordAudit(trx, {
      workspaceId,
      actor,
      action: 'workspace.renamed',
      target: { type: 'workspace', id: workspaceId },
    });
  });
  return { ...workspace, name };
}

/** Deletes a workspace: its owner only, never a personal one, only once it holds no form and no key. */
export async function deleteWorkspaceBy(
  database: Database,
  actor: AuditActor,
  workspaceId: string,
): Promise<void> {
  await database.transaction(async (trx) => {
    const workspace = await memberOrThrow(trx, workspaceId, actor.id);
    if (!mayDo(workspace.role, 'own')) throw roleTooLow(workspace.role, 'own');
    if (workspace.personal) throw conflict('A personal workspace is never deleted');
    const contents = await countWorkspaceContents(trx, workspaceId);
    if (contents.forms > 0 || contents.keys > 0) {
      throw conflict(
        `The workspace still holds ${contents.forms} form(s) and ${contents.keys} API key(s): delete them first`,
        'conflict',
        { extensions: { forms: contents.forms, keys: contents.keys } },
      );
    }
    await deleteWorkspace(trx, workspaceId);
    await recordAudit(trx, {
      workspaceId,
      actor,
      action: 'workspace.deleted',
      target: { type: 'workspace', id: workspaceId },
    });
  });
}

/** Holds the workspace's row for the rest of `trx`: changes to its owners go one after the other. */
async function holdWorkspace(database: Database, trx: Trx, workspaceId: string): Promise<void> {
  await lockRow(
    database.engine,
    trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId),
  ).executeTakeFirst();
}

const lastOwner = () =>
  conflict(
    'A workspace always keeps an owner: make another member owner first (or delete the workspace)',
    'last_owner',
  );

/**
 * Changes a member's role: an admin or owner may; making or unmaking an owner takes an owner;
 * the last owner is kept (409 `last_owner`).
 */
export async function changeMemberRole(
  database: Database,
  by: AuditActor,
  workspaceId: string,
  memberId: string,
  role: Role,
) {
  return database.transaction(async (trx) => {
    await holdWorkspace(database, trx, workspaceId);
    const actor = await memberOrThrow(trx, workspaceId, by.id);
    if (!mayDo(actor.role, 'manageAccess')) throw roleTooLow(actor.role, 'manageAccess');
    const member = await findMember(trx, workspaceId, memberId);
    if (!member) throw notFound(`No member ${memberId} in this workspace`);
    if ((member.role === 'owner' || role === 'owner') && !mayDo(actor.role, 'own')) {
      throw roleTooLow(actor.role, 'own');
    }
    if (member.role === 'owner' && role !== 'owner' && (await countOwners(trx, workspaceId)) <= 1) {
      throw lastOwner();
    }
    await updateRole(trx, workspaceId, memberId, role);
    await recordAudit(trx, {
      workspaceId,
      actor: by,
      action: 'member.role_changed',
      target: { type: 'member', id: memberId },
    });
    return { ...member, role };
  });
}

/**
 * Removes a member: anyone may remove themselves (leave); removing another takes an admin, and
 * an owner to remove an owner; the last owner is kept (409 `last_owner`).
 */
export async function removeMember(
  database: Database,
  by: AuditActor,
  workspaceId: string,
  memberId: string,
): Promise<void> {
  const actorId = by.id;
  await database.transaction(async (trx) => {
    await holdWorkspace(database, trx, workspaceId);
    const actor = await memberOrThrow(trx, workspaceId, actorId);
    const member = memberId === actorId ? actor : await findMember(trx, workspaceId, memberId);
    if (!member) throw notFound(`No member ${memberId} in this workspace`);
    if (memberId !== actorId) {
      if (!mayDo(actor.role, 'manageAccess')) throw roleTooLow(actor.role, 'manageAccess');
      if (member.role === 'owner' && !mayDo(actor.role, 'own')) throw roleTooLow(actor.role, 'own');
    }
    if (member.role === 'owner' && (await countOwners(trx, workspaceId)) <= 1) throw lastOwner();
    await deleteMember(trx, workspaceId, memberId);
    await recordAudit(trx, {
      workspaceId,
      actor: by,
      action: memberId === actorId ? 'member.left' : 'member.removed',
      target: { type: 'member', id: memberId },
    });
  });
}
