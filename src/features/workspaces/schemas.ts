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

export const InvitationBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    role: RoleSchema,
  },
  { additionalProperties: false },
);

export const InvitationOut = Type.Object({
  id: Type.String({ examples: ['inv_01m8b9evf8tkxmrssqw52wp655'] }),
  email: Type.String({ description: 'The invited address, lower-cased' }),
  role: RoleSchema,
  createdAt: Timestamp,
  expiresAt: Timestamp,
});

export const InvitationParams = Type.Object({
  id: Type.String(),
  invitationId: Type.String({ maxLength: 100 }),
});

export const AcceptBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: "The link's `token`" }) },
  { additionalProperties: false },
);

export const AcceptedOut = Type.Object({ workspace: WorkspaceOut, role: RoleSchema });

export const InvitationPreviewOut = Type.Object({
  workspace: Type.Object({ name: Type.String() }),
  role: RoleSchema,
  email: Type.String({ description: 'The invited address, lower-cased: the account that may accept' }),
  invitedBy: Type.Union([Type.String(), Type.Null()], {
    description: "The inviter's address (null once their account is gone)",
  }),
  expiresAt: Timestamp,
});

export const AuditQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  actor: Type.Optional(
    Type.String({ maxLength: 100, description: "A user's id (`usr_…`) or a key's (`key_…`): what they did" }),
  ),
  action: Type.Optional(
    Type.String({
      pattern: '^[a-z_]{1,40}(\\.[a-z_]{1,40})?$',
      description: 'An action (`form.updated`), or a kind of target (`form`): every action on it',
    }),
  ),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time, inclusive' })),
  to: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'ISO 8601 date or date-time, inclusive (a date: its whole day)',
    }),
  ),
});

export const AuditEntryOut = Type.Object({
  id: Type.String(),
  at: Timestamp,
  actor: Type.Object({
    type: Type.Union([Type.Literal('user'), Type.Literal('key')]),
    id: Type.String(),
    email: Type.Optional(Type.String({ description: "A user's address when they acted" })),
  }),
  action: Type.String({ examples: ['form.updated'] }),
  target: Type.Object({ type: Type.String(), id: Type.String() }),
  ip: Type.String({ description: 'The client address the change came from' }),
});
