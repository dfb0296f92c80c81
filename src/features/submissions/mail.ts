import type { Envelope } from '../../platform/crypto/envelope.js';
import { sha256Hex } from '../../platform/hashing.js';
import { escapeHtml } from '../../platform/html.js';
import { headerSafe, type MailMessage } from '../../platform/mail.js';
import { emailMessage } from '../../platform/mail-outbox.js';
import type { OutboxMessage } from '../../platform/outbox.js';
import { Problem } from '../../platform/problem.js';
import { createRateLimiter, type RateLimiter, type RateLimitStore } from '../../platform/rate-limit.js';
import { AUTO_RESPONSES_PER_RECIPIENT_PER_HOUR, SUBJECT_FIELD_TYPES } from '../../shared/auto-response.js';
import type { Answers } from '../../shared/logic.js';
import type { Field, FormDefinition } from '../forms/schemas.js';
import { asText, isFileAnswer, mask, maskAnswer, piiModeOf } from './pii.js';
import type { SubmitDependencies } from './submit.js';
import type { AnswerValue } from './validator.js';

/**
 * The e-mails a new submission causes (API.md §5.4): owner notifications and the
 * auto-response to the submitter. They are built before the submission's transaction and
 * written to the outbox inside it (kind `email`), so a crash after commit loses none;
 * the outbox worker sends them through the `Mailer`.
 *
 * Values appear as the owner sees them (masked stays masked, hashed shows the hash,
 * dropped is absent). The outbox row holds no PII in the clear: the whole rendered
 * message, recipients included, is envelope-encrypted in the payload.
 */

type MailFor = NonNullable<SubmitDependencies['mailFor']>;

/** An address we are willing to put in a header: ASCII, no spaces, quotes, brackets or separators. */
const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export const isMailAddress = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 254 && ADDRESS.test(value);

/** One answer as the owner sees it, or undefined when it is not to be shown (dropped, absent). */
export function ownerValue(field: Field, definition: FormDefinition, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const answer = value as AnswerValue;
  const mode = piiModeOf(field, definition);
  if (isFileAnswer(answer) && mode !== 'dropped') {
    // each file by name with its signed link (API.md §12); a masked name stays masked
    const files = mode === 'masked' ? (maskAnswer(answer) as typeof answer) : answer;
    return files.map((file) => (file.url ? `${file.name} <${file.url}>` : file.name)).join('; ');
  }
  switch (mode) {
    case 'dropped':
      return undefined;
    case 'masked':
      return mask(answer);
    case 'hashed':
      return `sha256:${sha256Hex(asText(answer))}`;
    default:
      return Array.isArray(answer) ? answer.join('; ') : String(answer);
  }
}

/** The answers as the owner sees them, in the form's field order. */
export function ownerView(definition: FormDefinition, answers: Answers): Map<string, string> {
  const shown = new Map<string, string>();
  for (const field of definition.fields) {
    // own answers only: a blank field named `constructor` is not Object.prototype's
    const answer = Object.hasOwn(answers, field.id) ? answers[field.id] : undefined;
    const value = ownerValue(field, definition, answer);
    if (value !== undefined) shown.set(field.id, value);
  }
  return shown;
}

const htmlLines = (text: string): string => escapeHtml(text).replace(/\r?\n/g, '<br>\n');

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_-]{1,64})\s*\}\}/;

/**
 * `{{fieldId}}` replaced by that answer (empty when there is none), in one pass: an
 * answer that itself contains `{{…}}` is not expanded again. `encode` is applied to the
 * template's own text and to each value alike (HTML escaping for the HTML part).
 */
export function renderTemplate(
  template: string,
  values: ReadonlyMap<string, string>,
  encode: (text: string) => string = (text) => text,
): string {
  const parts = template.split(new RegExp(PLACEHOLDER.source, 'g'));
  return parts.map((part, i) => encode(i % 2 === 1 ? (values.get(part) ?? '') : part)).join('');
}

/** Of the answers as the owner sees them, those that may go into a subject (SUBJECT_FIELD_TYPES). */
function subjectView(definition: FormDefinition, shown: ReadonlyMap<string, string>): Map<string, string> {
  const allowed = definition.fields.filter((field) => SUBJECT_FIELD_TYPES.has(field.type));
  return new Map(
    allowed.flatMap((field) => {
      const value = shown.get(field.id);
      return value === undefined ? [] : [[field.id, value] as const];
    }),
  );
}

const page = (inner: string) =>
  `<!doctype html>\n<html><head><meta charset="utf-8"></head><body>\n${inner}\n</body></html>\n`;

/**
 * The submitter's address for the auto-response: the answer to `emailField`, used as
 * given (masked values are stored in the clear, encrypted ones are at hand before
 * storage). None when the field's mode is `hashed` or `dropped`: the address is then
 * not to be kept, and sending to it would be keeping it (docs/decisions.md).
 */
function autoResponseRecipient(definition: FormDefinition, answers: Answers): string | undefined {
  const settings = definition.autoResponse;
  if (!settings?.enabled) return undefined;
  const field = definition.fields.find((f) => f.id === settings.emailField);
  if (!field) return undefined;
  const mode = piiModeOf(field, definition);
  if (mode === 'hashed' || mode === 'dropped') return undefined;
  const value = answers[field.id];
  return isMailAddress(value) ? value : undefined;
}

/** Reply-To of a notification: the submitter's address, when the owner may see it. */
function replyToFor(definition: FormDefinition, answers: Answers): string | undefined {
  for (const field of definition.fields) {
    if (field.type !== 'email') continue;
    const mode = piiModeOf(field, definition);
    if (mode !== 'plain' && mode !== 'encrypted') continue;
    const value = answers[field.id];
    if (isMailAddress(value)) return value;
  }
  return undefined;
}

export function notificationMessage(
  form: { id: string; title: string; environment: string; definition: FormDefinition },
  submission: { id: string; createdAt: string; status: string },
  answers: Answers,
): Omit<MailMessage, 'to'> {
  const definition = form.definition;
  const shown = ownerView(definition, answers);
  const flagged = submission.status === 'flagged';
  const title = headerSafe(form.title);
  const subject = `${flagged ? '[Flagged as spam] ' : ''}New submission: ${title}`;
  const rows = definition.fields
    .filter((field) => shown.has(field.id))
    .map((field) => ({ label: field.label, value: shown.get(field.id) ?? '' }));
  const flagNote = "This submission was flagged as spam by the form's spam protection.";
  const text = [
    `A new submission to "${form.title}" (form ${form.id}, environment ${form.environment}).`,
    ...(flagged ? [flagNote] : []),
    '',
    ...rows.map((row) => `${row.label}: ${row.value}`),
    '',
    `Submission: ${submission.id}`,
    `Received: ${submission.createdAt}`,
    '',
  ].join('\n');
  const html = page(
    [
      `<p>A new submission to <strong>${escapeHtml(form.title)}</strong> (form ${escapeHtml(form.id)}, environment ${escapeHtml(form.environment)}).</p>`,
      ...(flagged ? [`<p><strong>${escapeHtml(flagNote)}</strong></p>`] : []),
      '<table>',
      ...rows.map(
        (row) =>
          `<tr><th align="left" valign="top">${escapeHtml(row.label)}</th><td>${htmlLines(row.value)}</td></tr>`,
      ),
      '</table>',
      `<p>Submission ${escapeHtml(submission.id)}, received ${escapeHtml(submission.createdAt)}.</p>`,
    ].join('\n'),
  );
  const replyTo = replyToFor(definition, answers);
  return { subject, text, html, ...(replyTo ? { replyTo } : {}) };
}

/**
 * The auto-response to a submission, in the language it was made in (API.md §13): that
 * language's subject and body where the form translates them, else the form's own.
 */
export function autoResponseMessage(
  definition: FormDefinition,
  answers: Answers,
  language?: string | null,
): (MailMessage & { to: string }) | undefined {
  const settings = definition.autoResponse;
  const to = autoResponseRecipient(definition, answers);
  if (!settings || !to) return undefined;
  const translated = language ? definition.translations?.[language]?.autoResponse : undefined;
  const subject = translated?.subject || settings.subject;
  const body = translated?.body || settings.body;
  const shown = ownerView(definition, answers);
  return {
    to,
    // a placeholder of a free-text answer is left empty there, like one of an unanswered field,
    // and the spaces around it made one
    subject: headerSafe(renderTemplate(subject, subjectView(definition, shown))).replace(/ {2,}/g, ' '),
    text: renderTemplate(body, shown),
    html: page(`<p>${renderTemplate(body, shown, htmlLines)}</p>`),
    // RFC 3834: tells the receiving side (and its auto-responders) that a machine wrote this
    headers: { 'Auto-Submitted': 'auto-replied' },
  };
}

/**
 * The counter of auto-responses per mailbox: in Redis when REDIS_URL is set, so every instance
 * counts together; in memory otherwise (one SQLite instance; several on PostgreSQL without Redis
 * would each allow as many).
 */
export function autoResponseCap(store: RateLimitStore): RateLimiter {
  return createRateLimiter(store, {
    name: 'auto-response-recipient',
    points: AUTO_RESPONSES_PER_RECIPIENT_PER_HOUR,
    windowSeconds: 3600,
  });
}

const GMAIL = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches, as the cap counts it (hashed: no address in Redis): case
 * folded, a `+tag` dropped (sub-addressing reaches the same mailbox at most providers), and
 * Gmail's ignored dots removed, so that spelling one address many ways does not multiply the cap.
 */
export function mailboxKey(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1).toLowerCase();
  let local = address.slice(0, at).toLowerCase().replace(/\+.*$/, '');
  if (GMAIL.has(domain)) local = local.replaceAll('.', '');
  return sha256Hex(`${local}@${GMAIL.has(domain) ? 'gmail.com' : domain}`);
}

/** Counts an auto-response to `address`; false once the mailbox has had its share this hour. */
async function mayAutoRespond(cap: RateLimiter, address: string): Promise<boolean> {
  try {
    await cap.consume(mailboxKey(address));
    return true;
  } catch (error) {
    if (error instanceof Problem && error.status === 429) return false;
    throw error;
  }
}

/**
 * Builds the outbox messages of a new submission. Quarantined submissions never get
 * here (submit.ts); flagged ones notify the owner but get no auto-response, so that a
 * spammer cannot use the form to mail arbitrary addresses. An accepted one gets its
 * auto-response while the address is within `cap`; past it the submission is accepted and
 * notified all the same, and its submitter is not mailed.
 */
export function mailBuilder(envelope: Envelope, cap: RateLimiter): MailFor {
  return async (form, submission, answers) => {
    const definition = form.definition;
    const mails: Array<{ purpose: 'notification' | 'auto-response'; message: MailMessage }> = [];
    const notify = definition.notifications?.email;
    if (notify?.enabled && notify.to.length > 0) {
      const message = notificationMessage(form, submission, answers);
      const seen = new Set<string>();
      for (const address of notify.to) {
        const key = address.toLowerCase();
        if (seen.has(key) || !isMailAddress(address)) continue;
        seen.add(key);
        mails.push({ purpose: 'notification', message: { ...message, to: address } });
      }
    }
    if (submission.status === 'accepted') {
      const message = autoResponseMessage(definition, answers, submission.language);
      if (message && (await mayAutoRespond(cap, message.to)))
        mails.push({ purpose: 'auto-response', message });
    }
    return Promise.all(
      mails.map(
        ({ purpose, message }): Promise<OutboxMessage> =>
          emailMessage(envelope, message, { purpose, formId: form.id, submissionId: submission.id }),
      ),
    );
  };
}
