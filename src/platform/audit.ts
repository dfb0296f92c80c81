import { type SqlBool, sql } from 'kysely';
import type { Principal } from './auth.js';
import type { Db, Trx } from './db/database.js';
import { newId } from './ids.js';
import { nowIso } from './time.js';

/**
 * The audit log (API.md §14): one row per change a member or a key makes, written by
 * `recordAudit` inside the change's own transaction, so a change that rolls back leaves no
 * entry and an entry that cannot be written rolls the change back. Every feature that changes
 * something calls it; it lives here, below them all. Submissions by respondents are not
 * changes by members and are not recorded.
 */

/** Who acted: a user (with the address they had then) or a key, and from which client address. */
export interface AuditActor {
  type: 'user' | 'key';
  id: string;
  ip: string;
}

/** What a change was done to. */
export interface AuditTarget {
  type: 'workspace' | 'member' | 'invitation' | 'environment' | 'key' | 'form' | 'webhook' | 'response';
  id: string;
}

/** `<target>.<verb>`: what the log's `action` filter and the dashboard's words go by. */
export type AuditAction =
  | 'workspace.created'
  | 'workspace.renamed'
  | 'workspace.deleted'
  | 'member.role_changed'
  | 'member.removed'
  | 'member.left'
  | 'invitation.created'
  | 'invitation.revoked'
  | 'invitation.accepted'
  | 'environment.created'
  | 'environment.deleted'
  | 'key.created'
  | 'key.deleted'
  | 'form.created'
  | 'form.updated'
  | 'form.published'
  | 'form.deleted'
  | 'form.working_copy_published'
  | 'form.working_copy_discarded'
  | 'webhook.created'
  | 'webhook.updated'
  | 'webhook.deleted'
  | 'response.deleted'
  | 'response.note_added'
  | 'response.read'
  | 'response.unread'
  | 'response.starred'
  | 'response.unstarred';

/** The actor a principal is: a key names itself, a session its user. */
export function actorOf(principal: Principal): AuditActor {
  return principal.kind === 'session'
    ? { type: 'user', id: principal.userId, ip: principal.ip }
    : { type: 'key', id: principal.keyId, ip: principal.ip };
}

/**
 * Writes one entry in `trx`, the transaction of the change itself. A user's e-mail address is
 * copied into the entry by the same statement (no extra round trip): the log says who it was
 * then, whatever the account is called later.
 */
export async function recordAudit(
  trx: Trx,
  entry: { workspaceId: string; actor: AuditActor; action: AuditAction; target: AuditTarget },
): Promise<void> {
  const at = nowIso();
  await trx
    .insertInto('audit_log')
    .values(({ selectFrom }) => ({
      id: newId('aud', Date.parse(at)),
      workspace_id: entry.workspaceId,
      at,
      actor_type: entry.actor.type,
      actor_id: entry.actor.id,
      actor_email:
        entry.actor.type === 'user'
          ? selectFrom('users').select('email').where('id', '=', entry.actor.id)
          : null,
      action: entry.action,
      target_type: entry.target.type,
      target_id: entry.target.id,
      ip: entry.actor.ip,
    }))
    .execute();
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { type: 'user' | 'key'; id: string; email: string | null };
  action: string;
  target: { type: string; id: string };
  ip: string;
}

export interface AuditFilter {
  workspaceId: string;
  /** A user's or a key's id. */
  actor?: string;
  /** An action (`form.updated`), or a target type (`form`): every action on it. */
  action?: string;
  /** Inclusive ISO bounds on `at`. */
  from?: string;
  to?: string;
  /** The (at, id) of the last entry of the page before. */
  after?: { at: string; id: string };
  limit: number;
}

/** A workspace's entries, newest first, `limit + 1` of them (the caller cuts the page). */
export async function listAudit(db: Db, filter: AuditFilter): Promise<AuditEntry[]> {
  let query = db.selectFrom('audit_log').selectAll().where('workspace_id', '=', filter.workspaceId);
  if (filter.actor !== undefined) query = query.where('actor_id', '=', filter.actor);
  if (filter.action !== undefined) {
    query = filter.action.includes('.')
      ? query.where('action', '=', filter.action)
      : query.where('target_type', '=', filter.action);
  }
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<=', filter.to);
  const after = filter.after;
  // a row-value comparison: a range on the (workspace_id, at, id) index on both engines
  if (after) query = query.where(sql<SqlBool>`(at, id) < (${after.at}, ${after.id})`);
  const rows = await query
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    at: row.at,
    actor: { type: row.actor_type, id: row.actor_id, email: row.actor_email },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    ip: row.ip,
  }));
}

/** Deletes up to `limit` entries older than `before` (the retention job's batch); answers how many. */
export async function deleteAuditBefore(trx: Trx, before: string, limit: number): Promise<number> {
  const result = await trx
    .deleteFrom('audit_log')
    .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('at', '<', before).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
