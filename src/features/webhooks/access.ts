import type { FastifyRequest } from 'fastify';
import { type Principal, requireSessionOrSecretKey } from '../../platform/auth.js';
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/problem.js';
import { manageDenial, managedOrThrow } from '../forms/access.js';
import { findForm, type StoredForm } from '../forms/repo.js';
import { findWebhook, type WebhookRow } from './repo.js';

/**
 * Who may manage a webhook (API.md §7): whoever may manage its form — the owner's session
 * or a secret key of the form's environment (`manageDenial`, the forms' own rule, so another
 * user's webhook answers like another user's form: 403, never a 404 that hides it).
 */

export const webhookNotFound = (id: string) => notFound(`No webhook ${id}`);

/** Route options: every webhook route wants the owner's session or a secret key, 401/403 before any 400. */
export const managersOnly = {
  preValidation: async (request: FastifyRequest) => {
    requireSessionOrSecretKey(request);
  },
};

/** The form `formId`, if `principal` may manage it (and so its webhooks); else the problem. */
export async function managedForm(db: Db, principal: Principal, formId: string): Promise<StoredForm> {
  return managedOrThrow(principal, await findForm(db, formId), formId);
}

/** The webhook `id` and its form, if `principal` may manage them; else the problem. */
export async function managedWebhook(
  db: Db,
  principal: Principal,
  id: string,
): Promise<{ webhook: WebhookRow; form: StoredForm }> {
  const webhook = await findWebhook(db, id);
  if (!webhook) throw webhookNotFound(id);
  const form = await findForm(db, webhook.form_id);
  // the form was deleted after the webhook was read: its webhooks went with it
  if (!form) throw webhookNotFound(id);
  const denial = manageDenial(principal, form);
  if (denial) throw denial;
  return { webhook, form };
}
