import { type Action, environmentMismatch, keyOutsideScope, manageDenial } from '../../platform/access.js';
import { type AuditAction, actorOf, recordAudit } from '../../platform/audit.js';
import type { Principal } from '../../platform/auth.js';
import type { Trx } from '../../platform/db/database.js';
import { forbidden, notFound, Problem } from '../../platform/problem.js';
import type { StoredForm } from './repo.js';

/**
 * Who may see and change a form (API.md §1 and §5.3). Decisions only: the routes
 * turn a denial into its problem response.
 */

export type ReadView = 'full' | 'public';

export function formNotFound(id: string): Problem {
  return notFound(`No form ${id}`);
}

/** The audit entry of a change to a form, in the change's transaction `trx`. */
export function auditForm(
  trx: Trx,
  principal: Principal | null,
  action: AuditAction,
  form: Pick<StoredForm, 'id' | 'workspaceId'>,
): Promise<void> {
  // every command calls managedOrThrow first, which refuses a request without a credential
  if (principal === null) throw new Error(`${action} without a caller`);
  return recordAudit(trx, {
    workspaceId: form.workspaceId,
    actor: actorOf(principal),
    action,
    target: { type: 'form', id: form.id },
  });
}

/** The view `principal` gets of `form`, or the problem that denies it. */
export function readView(principal: Principal | null, form: StoredForm): ReadView | Problem {
  // a member of the form's workspace, whatever their role: every role reads (API.md §14)
  const isOwner = principal !== null && principal.workspaceId === form.workspaceId;
  if (principal === null) return form.status === 'live' ? 'public' : formNotFound(form.id);
  if (principal.kind === 'session') {
    if (isOwner) return 'full';
    return form.status === 'live' ? 'public' : forbidden('You do not own this form', 'not_owner');
  }
  if (!isOwner || principal.environment !== form.environment) return keyOutsideScope();
  // Publishable keys live in browsers: they read what a visitor may see, never the handling.
  return principal.kind === 'secret' ? 'full' : 'public';
}

/**
 * The form, when the caller may do `action` with it (and, when `environment` is named, it is
 * there); else the problem: 404 for an unknown form, then `manageDenial`, then
 * `environmentMismatch`.
 */
export function managedOrThrow(
  principal: Principal | null,
  form: StoredForm | undefined,
  formId: string,
  action: Action,
  environment?: string,
): StoredForm {
  if (!form) throw formNotFound(formId);
  const denial = manageDenial(principal, form, action) ?? environmentMismatch(form, environment);
  if (denial) throw denial;
  return form;
}

/**
 * Who sees a form's page in any status, as it will look (API.md §11.1, `/f/{id}?preview=1`):
 * a member of its workspace, known by the dashboard's session cookie (`isMember` reads the
 * membership). Anyone else gets what everyone gets.
 */
export async function mayPreview(
  userId: string | null,
  form: StoredForm,
  isMember: (workspaceId: string, userId: string) => Promise<boolean>,
): Promise<boolean> {
  return userId !== null && (await isMember(form.workspaceId, userId));
}

/**
 * Who may submit to a form (API.md §6.1): anyone to a live one; with a key, its own
 * environment's forms, drafts only with a secret key (for testing); never a session.
 */
export function assertMaySubmit(principal: Principal | null, form: StoredForm): void {
  if (principal === null) {
    if (form.status === 'live') return;
    if (form.status === 'disabled' || form.status === 'archived') throw formClosed(form);
    throw formNotFound(form.id);
  }
  if (principal.kind === 'session') {
    throw forbidden('Submissions come from visitors or integrations: use no credential, or an API key');
  }
  if (principal.workspaceId !== form.workspaceId || principal.environment !== form.environment) {
    throw keyOutsideScope();
  }
  if (form.status === 'disabled' || form.status === 'archived') throw formClosed(form);
  if (form.status === 'draft' && principal.kind !== 'secret') {
    throw forbidden('A draft form takes submissions only with a secret key (for testing)');
  }
}

const formClosed = (form: StoredForm) =>
  new Problem(403, 'form_closed', `The form ${form.id} is ${form.status} and takes no submissions`);
