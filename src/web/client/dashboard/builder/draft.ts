import type { Translations } from '../../../../shared/form.js';
import { type AccessDraft, accessBodyOf, accessDraftOf } from './access.js';
import {
  type FieldInput,
  type FormInput,
  fromLogic,
  type NewForm,
  type RuleRow,
  type StoredForm,
  toLogic,
  type Ui,
} from './model.js';
import type { AutoResponseDraft, CaptchaDraft, SpamRuleDraft } from './protection.js';
import { prunedTranslations, renameFieldTexts } from './translations/model.js';

/**
 * The builder's working copy of a form: read from the stored form (draftOf), sent back as a PUT
 * or POST body (bodyOf), and kept consistent as fields change (withFields).
 */

export interface Draft {
  title: string;
  fields: FieldInput[];
  rules: RuleRow[];
  ui: Ui;
  piiDefault: 'plain' | 'masked' | 'hashed' | 'encrypted' | 'dropped';
  honeypot: boolean;
  /** The honeypot's name as stored (a site's own HTML may post it), or the builder's default. */
  honeypotField: string;
  captcha: CaptchaDraft;
  spamRules: SpamRuleDraft[];
  spamAction: 'reject' | 'flag' | 'quarantine';
  autoResponse: AutoResponseDraft;
  notify: boolean;
  notifyTo: string;
  retentionDays: string;
  /** Who may answer, and when (the Settings tab's Responses section, access.ts). */
  access: AccessDraft;
  /** The form's texts in other languages by tag (the Languages tab, translations/). */
  translations: Translations;
}

export const HONEYPOT = 'website_url';

type StoredSpam = {
  honeypot?: { field: string } | null;
  captcha?: {
    provider: CaptchaDraft['provider'];
    siteKey: string;
    hasSecret?: boolean;
    minScore?: number;
  } | null;
  rules?: SpamRuleDraft[];
  action?: Draft['spamAction'];
};

export function draftOf(form: StoredForm): Draft {
  const spam: StoredSpam = form.spamProtection ?? {};
  const notify = form.notifications?.email;
  const reply = form.autoResponse;
  return {
    title: form.title,
    fields: form.fields,
    rules: fromLogic(form.logic),
    ui: form.ui,
    piiDefault: form.storage.pii ?? 'plain',
    honeypot: Boolean(spam.honeypot),
    honeypotField: spam.honeypot?.field ?? HONEYPOT,
    captcha: {
      provider: spam.captcha?.provider ?? '',
      siteKey: spam.captcha?.siteKey ?? '',
      secret: '',
      hasSecret: spam.captcha?.hasSecret === true,
      minScore: spam.captcha?.minScore === undefined ? '' : String(spam.captcha.minScore),
    },
    spamRules: (spam.rules ?? []).map((rule) => ({ ...rule })),
    spamAction: spam.action ?? 'reject',
    autoResponse: reply
      ? { ...reply }
      : {
          enabled: false,
          emailField: '',
          subject: 'Thank you',
          body: 'We have your answers, and will be in touch.',
        },
    notify: notify?.enabled === true,
    notifyTo: (notify?.to ?? []).join(', '),
    retentionDays: String(form.retention?.days ?? ''),
    access: accessDraftOf(form.access),
    translations: form.translations ?? {},
  };
}

/**
 * The PUT body: every member the builder edits, whole (null clears one), and the ones it does
 * not (storage.mode, the form's webhooks) left as stored or left out, which keeps them.
 */
export function bodyOf(draft: Draft, form: StoredForm): FormInput {
  const to = draft.notifyTo
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
  const days = Number(draft.retentionDays);
  const { captcha } = draft;
  const minScore = captcha.minScore.trim() === '' ? undefined : Number(captcha.minScore);
  const emailField =
    draft.autoResponse.emailField || draft.fields.find((field) => field.type === 'email')?.id || '';
  return {
    title: draft.title,
    fields: draft.fields,
    logic: toLogic(draft.rules, draft.fields),
    ui: draft.ui,
    storage: { ...form.storage, pii: draft.piiDefault },
    spamProtection: {
      honeypot: draft.honeypot ? { field: draft.honeypotField } : undefined,
      // a stored secret is kept by sending none (the server keeps it while provider and site key stay)
      captcha: captcha.provider
        ? {
            provider: captcha.provider,
            siteKey: captcha.siteKey,
            ...(captcha.secret ? { secret: captcha.secret } : {}),
            ...(minScore !== undefined ? { minScore } : {}),
          }
        : undefined,
      rules: draft.spamRules.length > 0 ? draft.spamRules : undefined,
      action: draft.spamAction,
    },
    autoResponse:
      draft.autoResponse.enabled || form.autoResponse ? { ...draft.autoResponse, emailField } : null,
    notifications: to.length > 0 || draft.notify ? { email: { enabled: draft.notify, to } } : null,
    retention: draft.retentionDays.trim() && Number.isFinite(days) ? { days } : null,
    access: accessBodyOf(draft.access),
    translations: prunedTranslations(draft.translations, draft.fields),
  };
}

/** `ui.embedOrigins` as the builder shows it: a line each; `none` for an empty list (no site). */
export const embedOriginsText = (origins: unknown): string =>
  Array.isArray(origins) ? (origins.length === 0 ? 'none' : origins.join('\n')) : '';
export const embedOriginsOf = (text: string): string[] | undefined => {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return undefined;
  return lines.length === 1 && lines[0]?.toLowerCase() === 'none' ? [] : lines;
};

/** A body without its null members (a new form has nothing to clear; POST takes no null). */
export function withoutNulls<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  const kept = Object.entries(value).filter(([, member]) => member !== null && member !== undefined);
  // the entries kept are exactly those whose value is not null
  return Object.fromEntries(kept) as { [K in keyof T]: Exclude<T[K], null> };
}

/**
 * The POST body of a copy of the form into `environment`. A CAPTCHA's secret is never read
 * back, so a copy whose secret was not typed again goes without its CAPTCHA (`captchaLeft`:
 * the person is told to enter it there).
 */
export function copyOf(
  draft: Draft,
  form: StoredForm,
  environment: string,
): { body: NewForm; captchaLeft: boolean } {
  const { spamProtection, ...rest } = withoutNulls(bodyOf(draft, form));
  const captchaLeft = Boolean(spamProtection?.captcha && !spamProtection.captcha.secret);
  const spam = spamProtection && (captchaLeft ? { ...spamProtection, captcha: undefined } : spamProtection);
  const body = { ...rest, title: draft.title, fields: draft.fields, environment };
  return { body: spam ? { ...body, spamProtection: spam } : body, captchaLeft };
}

/**
 * Fields changed: a field whose id was edited, by hand or as it follows its label (same place,
 * another id), takes its references along (logic rules, spam rules, the automatic reply's address
 * field, the e-mail question one response per address counts by), so the save stays valid.
 */
export function withFields(draft: Draft, fields: FieldInput[]): Draft {
  const renamed = new Map<string, string>();
  // a rename: an id gone from the form and a new one in its place; fields that only moved
  // (every id still there) rename nothing
  const before = new Set(draft.fields.map((field) => field.id));
  const after = new Set(fields.map((field) => field.id));
  if (fields.length === draft.fields.length)
    draft.fields.forEach((field, i) => {
      const now = fields[i]?.id;
      if (now !== undefined && now !== field.id && !before.has(now) && !after.has(field.id))
        renamed.set(field.id, now);
    });
  if (renamed.size === 0) return { ...draft, fields };
  const to = (id: string) => renamed.get(id) ?? id;
  return {
    ...draft,
    fields,
    rules: draft.rules.map((rule) => ({
      ...rule,
      targets: rule.targets.map(to),
      conditions: rule.conditions.map((condition) => ({ ...condition, field: to(condition.field) })),
    })),
    spamRules: draft.spamRules.map((rule) => ({ ...rule, field: to(rule.field) })),
    autoResponse: { ...draft.autoResponse, emailField: to(draft.autoResponse.emailField) },
    access: { ...draft.access, emailField: to(draft.access.emailField) },
    translations: renameFieldTexts(draft.translations, renamed),
  };
}
