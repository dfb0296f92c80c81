import { mayDo, type Role, roleTooLow } from '../../platform/access.js';
import { type AuditActor, recordAudit } from '../../platform/audit.js';
import { clientBucket } from '../../platform/client-address.js';
import type { AppContext } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import { sha256Hex } from '../../platform/hashing.js';
import { newId, randomToken } from '../../platform/ids.js';
import { emailMessage } from '../../platform/mail-outbox.js';
import { appendToOutbox } from '../../platform/outbox.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/problem.js';
import { createRateLimiter, type RateLimiter } from '../../platform/rate-limit.js';
import { addDays, nowIso } from '../../platform/time.js';
import { memberOrThrow } from './commands.js';
import {
  deleteInvitation,
  findInvitationByToken,
  findInvitationPreview,
  findMember,
  findMemberByEmail,
  findUserAddress,
  insertMember,
  replaceInvitation,
  type StoredInvitation,
  type StoredWorkspace,
  takeInvitation,
} from './repo.js';

/**
 * Invitations (API.md §14): an admin or owner invites an address with a role; the address gets a
 * link to `/app/invite?token=…` through the mail outbox, written in the invitation's own
 * transaction. The token is random, kept only as its SHA-256, works once and for 7 days; only a
 * session of the invited address may accept it. Inviting an address again replaces its pending
 * invitation (the old link stops working) and mails a new link.
 */

export const INVITATION_TTL_DAYS = 7;
/** Invitations one member may send in an hour (a team invited at once fits; a mail cannon does not). */
export const INVITATIONS_PER_HOUR = 50;
/** Invitation mails to one address in an hour, from any workspace (as many as reset mails). */
export const INVITATION_MAILS_PER_ADDRESS_PER_HOUR = 5;

type InvitationsContext = Pick<AppContext, 'config' | 'database' | 'envelope' | 'outbox' | 'rateLimitStore'>;

/** The counters, built once (memory counters are per limiter object). */
export class InvitationLimits {
  readonly sentByMember: RateLimiter;
  readonly mailsByAddress: RateLimiter;
  /** Acceptances per client address, like any other attempt with a credential (RATE_LIMIT_AUTH a minute). */
  private readonly acceptsByAddress: RateLimiter;

  constructor({ config, rateLimitStore }: Pick<AppContext, 'config' | 'rateLimitStore'>) {
    this.sentByMember = createRateLimiter(rateLimitStore, {
      name: 'invitations-member',
      points: INVITATIONS_PER_HOUR,
      windowSeconds: 3600,
    });
    this.mailsByAddress = createRateLimiter(rateLimitStore, {
      name: 'invitation-mails-email',
      points: INVITATION_MAILS_PER_ADDRESS_PER_HOUR,
      windowSeconds: 3600,
    });
    this.acceptsByAddress = createRateLimiter(rateLimitStore, {
      name: 'invitation-accepts-ip',
      points: config.rateLimitAuth,
      windowSeconds: 60,
    });
  }

  async accepting(address: string): Promise<void> {
    await this.acceptsByAddress.consume(clientBucket(address));
  }
}

export interface InviteInput {
  workspaceId: string;
  email: string;
  role: Role;
  /** `PUBLIC_URL` or this machine's own origin; undefined when neither can be trusted. */
  linkBase: string | undefined;
}

/** Invites `input.email` into the workspace; answers the invitation stored (its token only mailed). */
export async function invite(
  context: InvitationsContext,
  limits: InvitationLimits,
  actor: AuditActor,
  input: InviteInput,
): Promise<StoredInvitation> {
  const { database, envelope, outbox } = context;
  const emailKey = input.email.trim().toLowerCase();
  const workspace = await memberOrThrow(database.db, input.workspaceId, actor.id);
  assertMayInvite(workspace, input.role);
  if (workspace.personal) {
    throw conflict('A personal workspace is never shared: create a workspace to invite people into');
  }
  if (await findMemberByEmail(database.db, workspace.id, emailKey)) {
    throw conflict(`${input.email} is a member of this workspace already`);
  }
  if (input.linkBase === undefined) {
    throw conflict(
      'Invitations are mailed as links to PUBLIC_URL, which is not set (and this request did not come to this machine by its own name): set PUBLIC_URL',
    );
  }
  await limits.sentByMember.consume(actor.id);
  await limits.mailsByAddress.consume(emailKey);
  const inviter = await findUserAddress(database.db, actor.id);
  const token = randomToken(32);
  const createdAt = nowIso();
  const invitation: StoredInvitation = {
    id: newId('inv'),
    workspaceId: workspace.id,
    email: emailKey,
    role: input.role,
    invitedBy: actor.id,
    createdAt,
    expiresAt: addDays(createdAt, INVITATION_TTL_DAYS),
  };
  const message = await emailMessage(
    envelope,
    invitationMail({
      to: emailKey,
      inviter: inviter?.email ?? 'A member',
      workspace,
      role: input.role,
      link: `${input.linkBase}/app/invite?token=${encodeURIComponent(token)}`,
    }),
    { purpose: 'invitation', workspaceId: workspace.id, invitationId: invitation.id },
  );
  try {
    await database.transaction(async (trx) => {
      // the caller's role read again in the transaction: a demotion meanwhile refuses the invitation
      const current = await findMember(trx, workspace.id, actor.id);
      if (!current) throw forbidden(`You are not a member of the workspace ${workspace.id}`);
      assertMayInvite(current, input.role);
      await replaceInvitation(trx, invitation, sha256Hex(token));
      await appendToOutbox(trx, [message], createdAt);
      await recordAudit(trx, {
        workspaceId: workspace.id,
        actor,
        action: 'invitation.created',
        target: { type: 'invitation', id: invitation.id },
      });
    });
  } catch (error) {
    // two invitations of one address at the same moment (PostgreSQL): one is kept
    if (isUniqueViolation(error)) {
      throw conflict(
        `${input.email} was invited by another request at the same moment: see the pending invitations`,
      );
    }
    throw error;
  }
  outbox.nudge();
  return invitation;
}

/** Admins invite; only an owner may invite an owner. */
function assertMayInvite(member: { role: Role }, role: Role): void {
  if (!mayDo(member.role, 'manageAccess')) throw roleTooLow(member.role, 'manageAccess');
  if (role === 'owner' && !mayDo(member.role, 'own')) throw roleTooLow(member.role, 'own');
}

/** Revokes a pending invitation (admins and owners): its link stops working. */
export async function revokeInvitation(
  context: Pick<AppContext, 'database'>,
  actor: AuditActor,
  workspaceId: string,
  invitationId: string,
): Promise<void> {
  await context.database.transaction(async (trx) => {
    const member = await memberOrThrow(trx, workspaceId, actor.id);
    if (!mayDo(member.role, 'manageAccess')) throw roleTooLow(member.role, 'manageAccess');
    if (!(await deleteInvitation(trx, workspaceId, invitationId))) {
      throw notFound(`No pending invitation ${invitationId.slice(0, 100)} in this workspace`);
    }
    await recordAudit(trx, {
      workspaceId,
      actor,
      action: 'invitation.revoked',
      target: { type: 'invitation', id: invitationId },
    });
  });
}

const invalidToken = () =>
  badRequest(
    'invalid_token',
    'This invitation link is unknown, used already, revoked or expired: ask for a new invitation',
  );

/**
 * Accepts an invitation with the session of the invited address: the caller joins with the
 * invited role and the invitation is gone. Another account gets 403 and leaves the link usable.
 */
/**
 * What an invitation link offers, read before accepting (the invitation page's "Join Acme as
 * editor"): only for a valid token, whoever holds it, so a stranger without the link learns nothing.
 */
export async function previewInvitation(context: Pick<AppContext, 'database'>, token: string) {
  const preview = await findInvitationPreview(context.database.db, sha256Hex(token), nowIso());
  if (!preview) throw invalidToken();
  return {
    workspace: { name: preview.workspaceName },
    role: preview.role as Role,
    email: preview.email,
    invitedBy: preview.invitedBy ?? null,
    expiresAt: preview.expiresAt,
  };
}

export async function acceptInvitation(
  context: Pick<AppContext, 'database'>,
  actor: AuditActor,
  token: string,
): Promise<{ workspace: StoredWorkspace; role: Role }> {
  const { database } = context;
  const tokenHash = sha256Hex(token);
  const invitation = await findInvitationByToken(database.db, tokenHash, nowIso());
  if (!invitation) throw invalidToken();
  const user = await findUserAddress(database.db, actor.id);
  if (user?.emailKey !== invitation.email) {
    throw forbidden('This invitation is for another e-mail address: log in with that address to accept it');
  }
  const joinedAt = nowIso();
  try {
    return await database.transaction(async (trx) => {
      // taken only while still unexpired and unrevoked: of two acceptances at once one wins
      const current = await findInvitationByToken(trx, tokenHash, joinedAt);
      if (current?.id !== invitation.id || !(await takeInvitation(trx, invitation.id))) throw invalidToken();
      if (await findMember(trx, invitation.workspaceId, actor.id)) {
        throw conflict('You are a member of this workspace already');
      }
      await insertMember(trx, {
        workspaceId: invitation.workspaceId,
        userId: actor.id,
        role: invitation.role,
        joinedAt,
      });
      await recordAudit(trx, {
        workspaceId: invitation.workspaceId,
        actor,
        action: 'invitation.accepted',
        target: { type: 'invitation', id: invitation.id },
      });
      const workspace = await memberOrThrow(trx, invitation.workspaceId, actor.id);
      return { workspace, role: invitation.role };
    });
  } catch (error) {
    // joined by another acceptance at the same moment
    if (isUniqueViolation(error)) throw conflict('You are a member of this workspace already');
    throw error;
  }
}

function invitationMail(input: {
  to: string;
  inviter: string;
  workspace: StoredWorkspace;
  role: Role;
  link: string;
}) {
  return {
    to: input.to,
    subject: `${input.inviter} invited you to ${input.workspace.name} on Intake`,
    text: [
      `${input.inviter} invited you to the workspace "${input.workspace.name}" on Intake, as ${input.role}.`,
      '',
      `Accept the invitation: ${input.link}`,
      '',
      `The link works once, for ${INVITATION_TTL_DAYS} days, and only for an account with this address (${input.to}): if you have none, sign up with it first.`,
      'If you did not expect this, ignore this mail.',
    ].join('\n'),
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}
