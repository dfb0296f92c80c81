import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../platform/http/schemas.js';
import { ROLES } from '../../platform/roles.js';

/** Workspaces and their members (API.md §14). */

export const RoleSchema = Type.Union(
  ROLES.map((role) => Type.Literal(role)),
  { description: 'owner, admin, editor or viewer (highest first)' },
);

export const WorkspaceOut = Type.Object({
  id: Type.String({ examples: ['wsp_01m8b9evf8tkxmrssqw52wp655'] }),
  name: Type.String(),
  personal: Type.Boolean({ description: "The user's personal workspace: made at sign-up, never deleted" }),
  role: RoleSchema,
  createdAt: Timestamp,
});

export const WorkspaceBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }) },
  { additionalProperties: false },
);

export const WorkspaceParams = Type.Object({ id: Type.String() });
export const MemberParams = Type.Object({ id: Type.String(), userId: Type.String() });

export const MemberOut = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  joinedAt: Timestamp,
});

export const RoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });
