import type { Principal } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import type { OutboxMessage } from '../../platform/outbox.js';
import { badRequest, type Problem } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import type { FieldError } from '../../shared/form.js';
import type { Answers } from '../../shared/logic.js';
import type { StoredFile } from '../files/repo.js';
import type { FileService } from '../files/service.js';
import type { StoredForm } from '../forms/repo.js';
import { languagesOf } from '../forms/translations.js';
import { alreadySubmitted, formClosed, type ResponseControls } from './controls.js';
import { earlierResult, type Idempotency, keyWasTaken, resultOfHolder } from './idempotency.js';
import { ownerAnswers, protectAnswers } from './pii.js';
import { submissionView } from './presenter.js';
import type { StoredSubmission, SubmissionStatus } from './repo.js';
import { type CaptchaVerifier, judgeSpam, type SpamSource } from './spam.js';
import { validatorFor } from './validator.js';
import type { SubmissionWriter } from './writer.js';

/**
 * The submit path (API.md §6.1): who may submit → spam → validation → PII → one
 * batched transaction (writer.ts: quota, submission, outbox) → the answer. Nothing here waits on the
 * outside world after the CAPTCHA check; e-mail leaves through the outbox after commit.
 *
 * `submitOutcome` says how it ended as a value (stored, invalid, or refused as spam and by what),
 * for the pages, which answer each in their own words; `submit` is the API's: the refusals as
 * the problems §6.1 names.
 */

export interface SubmitInput {
  form: StoredForm;
  principal: Principal | null;
  answers: Answers;
  honeypotValue: unknown;
  sessionId: string | undefined;
  captchaToken: string | undefined;
  remoteIp: string | undefined;
  /** Idempotency-Key: a retry gets the first result, and nothing new is stored. */
  idempotency?: Idempotency;
  /** The language the form was shown in (one of its languages); the form's own when not given. */
  language?: string | undefined;
  /** The partial this submission completes (API.md §15 saved progress): stored under its id. */
  completes?: string | undefined;
}

export interface SubmitResult {
  id: string;
  formId: string;
  environment: string;
  status: SubmissionStatus;
  createdAt: string;
}

export interface SubmitDependencies {
  context: AppContext;
  captcha: CaptchaVerifier;
  /** Stores the submission with its quota, idempotency key and outbox rows, batched with concurrent ones. */
  writer: SubmissionWriter;
  /** Judges the uploads a submission names, links its files in what goes out. */
  files: FileService;
  /** Response controls (API.md §15): the keyed hash of an address, for `oncePer: "email"`. */
  controls: ResponseControls;
  /** Builds the e-mails a new submission causes (notifications, auto-response). */
  mailFor?: (
    form: StoredForm,
    submission: { id: string; createdAt: string; status: SubmissionStatus; language: string | null },
    answers: Answers,
  ) => Promise<OutboxMessage[]>;
  /**
   * Told of each new submission of a form that stores nothing (`storage.mode: "none"`), once it
   * is written: the analytics count it (app.ts hands it to them; no row of it is kept here).
   */
  forwarded?: (form: StoredForm, submission: SubmitResult) => void;
}

/** How a submission ended: stored (or replayed under its idempotency key), invalid, or refused as spam (action `reject`). */
export type SubmitOutcome =
  | { outcome: 'stored'; result: SubmitResult }
  | { outcome: 'invalid'; errors: FieldError[] }
  | { outcome: 'spam'; source: SpamSource; reason: string };

/** The API's submit: the stored submission's summary, or the problem (400 spam_detected, validation_failed). */
export async function submit(input: SubmitInput, deps: SubmitDependencies): Promise<SubmitResult> {
  const ended = await submitOutcome(input, deps);
  switch (ended.outcome) {
    case 'stored':
      return ended.result;
    case 'spam':
      throw badRequest('spam_detected', `The submission was refused as spam: ${ended.reason}`);
    case 'invalid':
      throw invalidSubmission(ended.errors);
  }
}

/** 400 validation_failed listing every failing field (the detail names the first three). */
export const invalidSubmission = (errors: FieldError[]): Problem =>
  badRequest(
    'validation_failed',
    `The submission is invalid: ${errors
      .map((e) => `${e.field} ${e.message}`)
      .slice(0, 3)
      .join('; ')}`,
    { errors },
  );

const hasFileFields = (form: StoredForm) => form.definition.fields.some((field) => field.type === 'file');

export async function submitOutcome(input: SubmitInput, deps: SubmitDependencies): Promise<SubmitOutcome> {
  const { form } = input;
  const { config, database, envelope } = deps.context;
  const definition = form.definition;
  const protection = definition.spamProtection;
  if (input.idempotency) {
    const earlier = await earlierResult<SubmitResult>(database.db, form.id, input.idempotency);
    if (earlier) {
      // the first request's batch may be committed but not yet flushed: it is not answered 201 before then either
      await database.durable();
      return { outcome: 'stored', result: earlier };
    }
  }
  // before its opening, after its closing, or full (by the count read here; the writer counts exactly)
  await deps.controls.assertOpen(form);
  deps.writer.assertRoom();

  const captchaSecret = protection?.captcha?.secret;
  const verdict = await judgeSpam({
    protection,
    captchaSecret: async () => (captchaSecret === undefined ? undefined : envelope.decrypt(captchaSecret)),
    answers: input.answers,
    honeypotValue: input.honeypotValue,
    captchaToken: input.captchaToken,
    remoteIp: input.remoteIp,
    verifier: deps.captcha,
  });
  let status: SubmissionStatus = 'accepted';
  if (verdict.spam) {
    if (protection?.action === 'reject')
      return { outcome: 'spam', source: verdict.source, reason: verdict.reason };
    status = protection?.action === 'quarantine' ? 'quarantined' : 'flagged';
  }

  const checked = validatorFor(form)(input.answers);
  if (checked.errors.length > 0) return { outcome: 'invalid', errors: checked.errors };
  let answers = checked.answers;
  let files: StoredFile[] = [];
  if (hasFileFields(form)) {
    const resolved = await deps.files.resolve(form, answers);
    if (resolved.errors.length > 0) return { outcome: 'invalid', errors: resolved.errors };
    answers = resolved.answers as typeof answers;
    files = resolved.files;
  }

  // compared by its keyed hash, taken from the answer before PII handling hashes, encrypts or drops it
  const access = definition.access;
  const address =
    access?.oncePer === 'email' && access.emailField !== undefined ? answers[access.emailField] : undefined;
  const stored = await protectAnswers(answers, definition, envelope);
  const createdAt = nowIso();
  const id = input.completes ?? newId('sub');
  const keepsSubmission = definition.storage.mode === 'owner';
  const language = input.language ?? languagesOf(form.definition)[0] ?? null;
  const submission = { id, createdAt, status, language };
  // Quarantined submissions cause nothing: no webhooks, no e-mail.
  const messages =
    status !== 'quarantined' && deps.mailFor
      ? await deps.mailFor(form, submission, deps.files.withLinks(answers))
      : [];

  const result: SubmitResult = { id, formId: form.id, environment: form.environment, status, createdAt };
  const idempotency = input.idempotency;
  const record: StoredSubmission = {
    id,
    workspaceId: form.workspaceId,
    environment: form.environment,
    formId: form.id,
    formVersion: form.version,
    answers: stored,
    sessionId: input.sessionId ?? null,
    status,
    read: false,
    starred: false,
    language,
    createdAt,
  };
  const written = deps.writer.write({
    idempotency: idempotency && { formId: form.id, key: idempotency, result },
    quota:
      status === 'accepted'
        ? {
            workspaceId: form.workspaceId,
            environment: form.environment,
            quota: config.monthlyQuota,
            now: createdAt,
          }
        : undefined,
    submission: keepsSubmission ? record : undefined,
    count:
      status === 'accepted'
        ? {
            formId: form.id,
            max: access?.maxSubmissions,
            refusal: () => {
              deps.controls.foundFull(form.id);
              return formClosed(form, 'full');
            },
          }
        : undefined,
    address:
      typeof address === 'string'
        ? {
            formId: form.id,
            hash: deps.controls.addressHash(form.id, address),
            submissionId: id,
            createdAt,
            refusal: () => alreadySubmitted(form),
            took: false,
          }
        : undefined,
    outbox: messages,
    completes: input.completes,
    files:
      files.length === 0
        ? undefined
        : {
            submissionId: id,
            formId: form.id,
            fileIds: files.map((file) => file.id),
            fieldOf: Object.fromEntries(files.map((file) => [file.id, file.fieldId])),
            // a form that keeps no submissions forwards its files: kept as long as their links live
            state: keepsSubmission ? 'attached' : 'forwarded',
            expiresAt: keepsSubmission
              ? null
              : new Date(Date.parse(createdAt) + config.fileLinkTtlS * 1000).toISOString(),
          },
    // what GET /responses/{id} will show of it, without decrypting what was just encrypted
    event:
      status === 'quarantined'
        ? undefined
        : {
            event: 'response.created',
            formId: form.id,
            workspaceId: form.workspaceId,
            environment: form.environment,
            occurredAt: createdAt,
            submissionId: id,
            data: submissionView(record, deps.files.withLinks(ownerAnswers(stored, answers)), []),
          },
  });
  const taken = await keyWasTaken(written);
  // one place fewer under the form's limit: once this process has seen them all taken, the next check reads the count
  if (!taken && status === 'accepted' && access?.maxSubmissions !== undefined)
    deps.controls.tookPlace(form.id);
  if (!taken && !keepsSubmission) deps.forwarded?.(form, result);
  // files whose bytes were never kept (PII hashed or dropped) need no row once judged: their names go with it
  const withoutBytes = files.filter((file) => file.storageKey === null);
  if (withoutBytes.length > 0 && !taken) await deps.files.discard(withoutBytes);
  // a concurrent request with the same key was stored first: its result is the answer
  if (taken && idempotency) {
    const holder = await resultOfHolder<SubmitResult>(database.db, form.id, idempotency);
    await database.durable();
    return { outcome: 'stored', result: holder };
  }
  return { outcome: 'stored', result };
}
