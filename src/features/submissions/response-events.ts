import { actorOf, recordAudit } from '../../platform/audit.js';
import type { Principal } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { nowIso } from '../../platform/time.js';
import { enqueueWebhookEvents } from '../webhooks/events.js';
import { type StoredSubmission, setFlag } from './repo.js';

/**
 * `response.updated` and `response.deleted` (API.md §7), raised by the owner's changes to a
 * submission (read, star, note, delete; `response.created` comes from the submit path), and
 * the audit entries of read and star (API.md §14).
 */

export type ResponseChange =
  /** `data`: the submission as GET /responses/{id} shows it after the change. */
  { event: 'response.updated'; data: Record<string, unknown> } | { event: 'response.deleted' };

/**
 * Writes a change to a submission and queues its event in the same transaction, then
 * nudges the outbox worker. `change` undefined, or `write` answering `false`: nothing a
 * webhook hears of happened (marking read what was read already, perhaps by a concurrent
 * request). Quarantined submissions never reach webhooks, nor partials by these events.
 */
export async function writeResponseChange(
  context: Pick<AppContext, 'database' | 'envelope' | 'outbox'>,
  submission: Pick<StoredSubmission, 'id' | 'formId' | 'workspaceId' | 'environment' | 'status'>,
  change: ResponseChange | undefined,
  write: (trx: Trx) => Promise<unknown>,
): Promise<void> {
  // A partial is heard of as `response.partial` alone (API.md §15), by the webhooks that ask for it:
  // the owner's note, star or delete of one is no `response.updated` or `response.deleted`.
  const emits =
    change !== undefined && submission.status !== 'quarantined' && submission.status !== 'partial';
  const queued = await context.database.transaction(async (trx) => {
    const changed = await write(trx);
    if (!emits || changed === false) return 0;
    return enqueueWebhookEvents(trx, context.envelope, [
      {
        event: change.event,
        formId: submission.formId,
        workspaceId: submission.workspaceId,
        environment: submission.environment,
        occurredAt: nowIso(),
        submissionId: submission.id,
        // a deleted submission is named, not shown: its answers are gone
        data:
          change.event === 'response.updated'
            ? change.data
            : { id: submission.id, formId: submission.formId },
      },
    ]);
  });
  if (queued > 0) context.outbox.nudge();
}

/**
 * Marks a submission read or unread, starred or not, and records the change in the audit log
 * (API.md §14: "every change", responses' management among them): only a change is recorded,
 * so the inbox opening a response it had read already writes nothing.
 */
export async function setFlagAudited(
  trx: Trx,
  principal: Principal,
  submission: StoredSubmission,
  flag: 'read' | 'starred',
  value: boolean,
): Promise<boolean> {
  const changed = await setFlag(trx, submission, flag, value);
  if (changed) {
    const actions = {
      read: ['response.read', 'response.unread'],
      starred: ['response.starred', 'response.unstarred'],
    } as const;
    await recordAudit(trx, {
      workspaceId: submission.workspaceId,
      actor: actorOf(principal),
      action: actions[flag][value ? 0 : 1],
      target: { type: 'response', id: submission.id },
    });
  }
  return changed;
}
