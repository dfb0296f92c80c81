import type { paths } from '../api/schema.js';

/**
 * What a member's role lets them do, to show or disable the dashboard's controls (API.md §14's
 * table). The server is the judge (`platform/access.ts`, `LEAST_ROLE`): this copy only spares a
 * person a button that would be refused, and a refusal is still shown as the server words it.
 */

export type Workspace =
  paths['/workspaces']['get']['responses'][200]['content']['application/json']['data'][number];
export type Role = Workspace['role'];

/** Highest first, as the server lists them. */
export const ROLES: readonly Role[] = ['owner', 'admin', 'editor', 'viewer'];

export const ROLE_WORDS: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  editor: 'Editor',
  viewer: 'Viewer',
};

/** What each role may do, in a sentence (the invite form's and the role select's hint). */
export const ROLE_MEANS: Record<Role, string> = {
  owner: 'everything, renaming and deleting the workspace and managing owners included',
  admin: 'members, invitations, API keys, environments and the audit log, and all an editor does',
  editor: 'create, edit, publish and delete forms, responses and webhooks',
  viewer: 'read forms and responses, star, mark read, write notes and reply',
};

/** §14's rows: each capability and the least role that has it. */
const LEAST = {
  manageForms: 'editor',
  manageAccess: 'admin',
  own: 'owner',
} as const satisfies Record<string, Role>;
export type Capability = keyof typeof LEAST;

export const atLeast = (role: Role, least: Role): boolean => ROLES.indexOf(role) <= ROLES.indexOf(least);
export const may = (role: Role, capability: Capability): boolean => atLeast(role, LEAST[capability]);

/** Why a control is disabled for `role`, in words: the role it needs. */
export const needs = (role: Role, capability: Capability): string =>
  `Your role here (${role}) does not allow this: it needs ${LEAST[capability]} or above.`;

/**
 * The roles `role` may give (or take away): an owner any, an admin every role but owner
 * (any change touching an owner needs an owner), others none.
 */
export function rolesGivenBy(role: Role): Role[] {
  if (role === 'owner') return [...ROLES];
  if (role === 'admin') return ROLES.filter((each) => each !== 'owner');
  return [];
}

/** Whether `role` may change or remove a member who is `theirs` (not themselves: anyone may leave). */
export const mayManageMember = (role: Role, theirs: Role): boolean =>
  role === 'owner' || (role === 'admin' && theirs !== 'owner');

/** The workspace to act in: the remembered one while the person is still its member, else their personal one. */
export function chosenWorkspace(
  workspaces: readonly Workspace[],
  remembered: string | undefined,
): Workspace | undefined {
  return workspaces.find((each) => each.id === remembered) ?? workspaces.find((each) => each.personal);
}
