import type { PublicForm } from '../../shared/form.js';
import { presentWebhook } from '../webhooks/presenter.js';
import type { StoredWebhook } from '../webhooks/repo.js';
import { ownerAccessOf, publicAccessOf } from './access-rules.js';
import type { StoredForm } from './repo.js';
import type { FormDefinition } from './schemas.js';
import { DEFAULT_LANGUAGE, languagesOf, translatePublicForm } from './translations.js';

/** The only place that decides what a form looks like on the wire. */

function presentSpamProtection(spam: FormDefinition['spamProtection']) {
  if (!spam) return null;
  const { captcha, ...rest } = spam;
  if (!captcha) return rest;
  const { secret, hasSecret: _ignored, ...visible } = captcha;
  return { ...rest, captcha: { ...visible, hasSecret: Boolean(secret) } };
}

/** The owner's view: everything but secrets. `webhooks` are the form's own rows. */
/** A form as its owner reads it (GET /forms/{id}). */
export type FormView = ReturnType<typeof presentForm>;

/** `hasDraft`: the form has a working copy (API.md §5.5), which this view never shows. */
export function presentForm(form: StoredForm, webhooks: readonly StoredWebhook[], hasDraft = false) {
  const d = form.definition;
  return {
    id: form.id,
    title: form.title,
    environment: form.environment,
    status: form.status,
    version: form.version,
    userId: form.userId,
    fields: d.fields,
    ui: d.ui,
    storage: d.storage,
    logic: d.logic,
    retention: d.retention,
    webhooks: webhooks.map(presentWebhook),
    notifications: d.notifications,
    autoResponse: d.autoResponse,
    spamProtection: presentSpamProtection(d.spamProtection),
    translations: d.translations ?? {},
    access: ownerAccessOf(d.access),
    hasDraft,
    createdAt: form.createdAt,
    updatedAt: form.updatedAt,
  };
}

/** What the public view says of `access` depends on the moment and the count of accepted submissions. */
export interface AccessState {
  /** Milliseconds since the epoch; now when not given. */
  now?: number;
  /** Accepted submissions so far (repo.ts `acceptedCount`), for `maxSubmissions`. */
  accepted?: number;
}

/**
 * What anyone may see of a form: how to render and fill it in, nothing about its handling; its
 * texts in `language` when that is one of its languages (API.md §13), else in its own.
 */
export function presentPublicForm(form: StoredForm, language?: string, state: AccessState = {}): PublicForm {
  const d = form.definition;
  const languages = languagesOf(d);
  const own = languages[0] ?? DEFAULT_LANGUAGE;
  const shown = language !== undefined && languages.includes(language) ? language : own;
  const view: PublicForm = {
    id: form.id,
    title: form.title,
    environment: form.environment,
    status: form.status,
    version: form.version,
    fields: d.fields.map(({ pii: _pii, piiMode: _piiMode, ...field }) => field),
    ui: d.ui,
    logic: d.logic,
    spamProtection: {
      honeypot: d.spamProtection?.honeypot ?? null,
      captcha: d.spamProtection?.captcha
        ? { provider: d.spamProtection.captcha.provider, siteKey: d.spamProtection.captcha.siteKey }
        : null,
    },
    access: publicAccessOf(d.access, state.now ?? Date.now(), state.accepted, d.access?.closedMessage),
    language: shown,
    languages,
  };
  return shown === own ? view : translatePublicForm(view, d.translations?.[shown]);
}
