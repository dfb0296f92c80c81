import type { FastifyRequest } from 'fastify';
import { type Action, environmentMismatch, manageDenial } from '../../platform/access.js';
import { type Principal, requireSessionOrSecretKey } from '../../platform/auth.js';
import type { Db, Trx } from '../../platform/db/database.js';
import { notFound } from '../../platform/problem.js';
import { findWebhook, type StoredWebhook } from './repo.js';

/**
 * Who may manage a webhook (API.md §7): whoever may manage its form — the owner's session
 * or a secret key of the form's environment (`manageDenial`, the forms' own rule, so another
 * user's webhook answers like another user's form: 403, never a 404 that hides it).
 *
 * Forms sit above webhooks (ARCHITECTURE.md, "Layers"): what webhooks need to know of a form
 * comes through a `FormLookup` that the forms feature hands over at registration.
 */

/** What webhooks know of a form: whose it is, and where it lives. */
export interface WebhookForm {
  id: string;
  workspaceId: string;
  environment: string;
}

export interface FormLookup {
  find(db: Db, id: string): Promise<WebhookForm | undefined>;
  /** Locks the form for the rest of `trx` (concurrent writers then go one after the other); false when it is gone. */
  lock(trx: Trx, id: string): Promise<boolean>;
}

export const webhookNotFound = (id: string) => notFound(`No webhook ${id}`);
const formNotFound = (id: string) => notFound(`No form ${id}`);

/** Route options: every webhook route wants the owner's session or a secret key, 401/403 before any 400. */
export const managersOnly = {
  preValidation: async (request: FastifyRequest) => {
    requireSessionOrSecretKey(request);
  },
};

export class WebhookAccess {
  constructor(readonly forms: FormLookup) {}

  /**
   * The form `formId`, if `principal` may do `action` with it (and so with its webhooks) and,
   * when `environment` is named, it lives there; else the problem.
   */
  async managedForm(
    db: Db,
    principal: Principal,
    formId: string,
    action: Action,
    environment?: string,
  ): Promise<WebhookForm> {
    const form = await this.forms.find(db, formId);
    if (!form) throw formNotFound(formId);
    const denial = manageDenial(principal, form, action) ?? environmentMismatch(form, environment);
    if (denial) throw denial;
    return form;
  }

  /** The webhook `id` and its form, if `principal` may do `action` with them; else the problem. */
  async managedWebhook(
    db: Db,
    principal: Principal,
    id: string,
    action: Action,
  ): Promise<{ webhook: StoredWebhook; form: WebhookForm }> {
    const webhook = await findWebhook(db, id);
    if (!webhook) throw webhookNotFound(id);
    const form = await this.forms.find(db, webhook.formId);
    // the form was deleted after the webhook was read: its webhooks went with it
    if (!form) throw webhookNotFound(id);
    const denial = manageDenial(principal, form, action);
    if (denial) throw denial;
    return { webhook, form };
  }
}
