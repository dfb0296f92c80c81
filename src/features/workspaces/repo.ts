import type { Db, Trx } from '../../platform/db/database.js';
import { toCount } from '../../platform/db/dialect.js';
import type { Role } from '../../platform/roles.js';

export interface StoredWorkspace {
  id: string;
  name: string;
  personal: boolean;
  createdAt: string;
}

export interface StoredMember {
  workspaceId: string;
  userId: string;
  role: Role;
  joinedAt: string;
}

export async function insertWorkspace(trx: Db | Trx, workspace: StoredWorkspace): Promise<void> {
  await trx
    .insertInto('workspaces')
    .values({
      id: workspace.id,
      name: workspace.name,
      personal: workspace.personal ? 1 : 0,
      created_at: workspace.createdAt,
    })
    .execute();
}

export async function insertMember(trx: Db | Trx, member: StoredMember): Promise<void> {
  await trx
    .insertInto('workspace_members')
    .values({
      workspace_id: member.workspaceId,
      user_id: member.userId,
      role: member.role,
      joined_at: member.joinedAt,
    })
    .execute();
}

/** The workspaces `userId` is a member of, with their role: the personal one first, then by age. */
export async function listWorkspacesOf(
  db: Db,
  userId: string,
): Promise<Array<StoredWorkspace & { role: Role }>> {
  const rows = await db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.personal', 'w.created_at as createdAt', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('w.personal', 'desc')
    .orderBy('w.created_at')
    .orderBy('w.id')
    .execute();
  return rows.map((row) => ({ ...row, personal: Number(row.personal) === 1 }));
}

/** The workspace, with `userId`'s role in it; undefined when it is unknown or they are no member. */
export async function findWorkspaceOf(
  db: Db | Trx,
  workspaceId: string,
  userId: string,
): Promise<(StoredWorkspace & { role: Role }) | undefined> {
  const row = await db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.personal', 'w.created_at as createdAt', 'm.role'])
    .where('m.user_id', '=', userId)
    .where('m.workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row && { ...row, personal: Number(row.personal) === 1 };
}

export async function isMember(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('workspace_members')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The workspaces where `userId` has at least one of `roles`. */
export async function workspaceIdsOf(
  db: Db | Trx,
  userId: string,
  roles: readonly Role[],
): Promise<string[]> {
  const rows = await db
    .selectFrom('workspace_members')
    .select('workspace_id')
    .where('user_id', '=', userId)
    .where('role', 'in', [...roles])
    .execute();
  return rows.map((row) => row.workspace_id);
}

export async function renameWorkspace(trx: Db | Trx, workspaceId: string, name: string): Promise<void> {
  await trx.updateTable('workspaces').set({ name }).where('id', '=', workspaceId).execute();
}

/** The members with their e-mail addresses, by the time they joined. */
export function listMembers(db: Db, workspaceId: string) {
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id as userId', 'u.email', 'm.role', 'm.joined_at as joinedAt'])
    .where('m.workspace_id', '=', workspaceId)
    .orderBy('m.joined_at')
    .orderBy('m.user_id')
    .execute();
}

export async function findMember(trx: Db | Trx, workspaceId: string, userId: string) {
  return trx
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id as userId', 'u.email', 'm.role', 'm.joined_at as joinedAt'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}

export async function countOwners(trx: Db | Trx, workspaceId: string): Promise<number> {
  const row = await trx
    .selectFrom('workspace_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

export async function updateRole(
  trx: Db | Trx,
  workspaceId: string,
  userId: string,
  role: Role,
): Promise<void> {
  await trx
    .updateTable('workspace_members')
    .set({ role })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMember(trx: Db | Trx, workspaceId: string, userId: string): Promise<void> {
  await trx
    .deleteFrom('workspace_members')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}

/** What a workspace still holds that keeps it from being deleted (API.md §14). */
export async function countWorkspaceContents(trx: Db | Trx, workspaceId: string) {
  const [forms, keys] = await Promise.all([
    trx
      .selectFrom('forms')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow(),
  ]);
  return { forms: toCount(forms.n), keys: toCount(keys.n) };
}

/**
 * Deletes the workspace; its members and environments go with it (foreign keys). Usage rows and
 * what forms left behind (none may be left: the caller checked) are its own to sweep.
 */
export async function deleteWorkspace(trx: Trx, workspaceId: string): Promise<void> {
  await trx.deleteFrom('usage').where('workspace_id', '=', workspaceId).execute();
  await trx.deleteFrom('workspaces').where('id', '=', workspaceId).execute();
}

export interface StoredInvitation {
  id: string;
  workspaceId: string;
  /** Lowercased. */
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

const invitationColumns = [
  'id',
  'workspace_id as workspaceId',
  'email',
  'role',
  'invited_by as invitedBy',
  'created_at as createdAt',
  'expires_at as expiresAt',
] as const;

/** Stores an invitation in place of any other of the workspace to the same address (and the expired ones). */
export async function replaceInvitation(
  trx: Trx,
  invitation: StoredInvitation,
  tokenHash: string,
): Promise<void> {
  await trx
    .deleteFrom('workspace_invitations')
    .where('workspace_id', '=', invitation.workspaceId)
    .where((eb) => eb.or([eb('email', '=', invitation.email), eb('expires_at', '<=', invitation.createdAt)]))
    .execute();
  await trx
    .insertInto('workspace_invitations')
    .values({
      id: invitation.id,
      workspace_id: invitation.workspaceId,
      email: invitation.email,
      role: invitation.role,
      token_hash: tokenHash,
      invited_by: invitation.invitedBy,
      created_at: invitation.createdAt,
      expires_at: invitation.expiresAt,
    })
    .execute();
}

/** A workspace's invitations still open at `now`, newest first. */
export function listPendingInvitations(
  db: Db,
  workspaceId: string,
  now: string,
): Promise<StoredInvitation[]> {
  return db
    .selectFrom('workspace_invitations')
    .select(invitationColumns)
    .where('workspace_id', '=', workspaceId)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes the workspace's invitation `id`; false when there is none. */
export async function deleteInvitation(trx: Trx, workspaceId: string, id: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('workspace_invitations')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The unexpired invitation whose token hashes to `tokenHash`. */
export function findInvitationByToken(
  db: Db | Trx,
  tokenHash: string,
  now: string,
): Promise<StoredInvitation | undefined> {
  return db
    .selectFrom('workspace_invitations')
    .select(invitationColumns)
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** What the holder of a link may know before accepting: the workspace's name, the role, the address, the inviter's address. */
export function findInvitationPreview(db: Db | Trx, tokenHash: string, now: string) {
  return db
    .selectFrom('workspace_invitations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select([
      'w.name as workspaceName',
      'i.role',
      'i.email',
      'i.expires_at as expiresAt',
      'u.email as invitedBy',
    ])
    .where('i.token_hash', '=', tokenHash)
    .where('i.expires_at', '>', now)
    .executeTakeFirst();
}

/** Takes (deletes) the invitation `id`: of two acceptances at once only one gets true. */
export async function takeInvitation(trx: Trx, id: string): Promise<boolean> {
  const result = await trx.deleteFrom('workspace_invitations').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The member of the workspace with this (lowercased) address, if any. */
export function findMemberByEmail(db: Db | Trx, workspaceId: string, emailKey: string) {
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id as userId', 'm.role'])
    .where('m.workspace_id', '=', workspaceId)
    .where('u.email_key', '=', emailKey)
    .executeTakeFirst();
}

/** A user's address and its lowercased key. */
export function findUserAddress(db: Db | Trx, userId: string) {
  return db
    .selectFrom('users')
    .select(['email', 'email_key as emailKey'])
    .where('id', '=', userId)
    .executeTakeFirst();
}
