import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { encodeJson } from '../../platform/db/dialect.js';
import { sha256Hex } from '../../platform/hashing.js';
import { escapeHtml } from '../../platform/html.js';
import { linkOrigin } from '../../platform/http/link-origin.js';
import { newId, randomToken } from '../../platform/ids.js';
import { headerSafe } from '../../platform/mail.js';
import { emailMessage } from '../../platform/mail-outbox.js';
import { appendToOutbox } from '../../platform/outbox.js';
import { Problem } from '../../platform/problem.js';
import { createRateLimiter, type RateLimiter } from '../../platform/rate-limit.js';
import { addDays, nowIso } from '../../platform/time.js';
import { AUTO_RESPONSES_PER_RECIPIENT_PER_HOUR } from '../../shared/auto-response.js';
import { wordsFor } from '../../shared/i18n/catalogues.js';
import { type Answers, isAnswered } from '../../shared/logic.js';
import type { StoredForm } from '../forms/repo.js';
import { enqueueWebhookEvents } from '../webhooks/events.js';
import { isMailAddress, mailboxKey } from './mail.js';
import { ownerAnswers, piiModeOf, protectAnswers, revealAnswers, type StoredAnswers } from './pii.js';
import { submissionView } from './presenter.js';
import { insertSubmissions, type StoredSubmission, submissionFromRow } from './repo.js';
import { type AnswerValue, validatorFor } from './validator.js';

/**
 * Saved progress (API.md §15): each page a respondent posts of a one-by-one form keeps the
 * answers so far as a submission with status `partial`, found again by a resume token (a
 * cookie, the page's hidden `_resume`, the link `/f/{id}?resume=…`) that is stored only as its
 * SHA-256. A partial is stored under the form's PII modes like any submission; when it is
 * resumed, the respondent gets back what was kept of their own answers (plain, masked and
 * encrypted ones; a hashed or dropped answer, and a file, is asked again). The last page's
 * post completes it through the submit pipeline under the same id (writer.ts `completes`).
 */

/** How long a partial lives after its last save (API.md §15: its link is valid 30 days). */
export const PARTIAL_TTL_DAYS = 30;

/**
 * Whether a form keeps its respondents' progress: not one that stores nothing (`storage.mode:
 * "none"`, API.md §5.4: its answers are only forwarded), whose pages carry the answers so far
 * in themselves alone and offer no "Save and continue later".
 */
export const keepsProgress = (form: StoredForm): boolean => form.definition.storage.mode !== 'none';

/** A resume token as the pages carry it: 256 random bits, URL-safe. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const isResumeToken = (value: unknown): value is string =>
  typeof value === 'string' && TOKEN.test(value);

export interface SaveInput {
  form: StoredForm;
  /** The answers so far as the page posted them (those the logic hides dropped already). */
  answers: Answers;
  sessionId: string;
  language: string;
  /** The question the respondent is on after this post. */
  questionId: string | undefined;
  /** The token of the partial this session saves into; none (or one gone) starts a new partial. */
  token: string | undefined;
  /** The respondent's address: new partials are counted per address (a 429 problem past the limit). */
  remoteIp: string;
}

export interface Saved {
  submissionId: string;
  /** The resume token: the one given, or a new one for a new partial. */
  token: string;
  /**
   * The token given was of answers sent already (the same link finished on another device): these
   * answers went into a new partial, a new response if they are sent, and the page says so.
   */
  sentAlready: boolean;
}

/** A partial found by its token, as the respondent gets it back. */
export interface Resumed {
  submissionId: string;
  /** The session the answers were given in: a resumed page goes on in it (views and steps count once). */
  sessionId: string | null;
  /** Answers saved that the form as it is now no longer takes (a question gone, an option removed): left out. */
  dropped: number;
  answers: Answers;
  questionId: string | null;
  language: string | null;
}

export class SavedProgress {
  /** At most this many resume links an hour to one mailbox (as for auto-responses): the form cannot be used to mail anyone. */
  private readonly mailCap: RateLimiter;
  /** New partials per client address a minute, as many as submissions: steps cannot fill the database faster than sends. */
  private readonly starts: RateLimiter;

  constructor(private readonly context: AppContext) {
    this.mailCap = createRateLimiter(context.rateLimitStore, {
      name: 'resume-link-recipient',
      points: AUTO_RESPONSES_PER_RECIPIENT_PER_HOUR,
      windowSeconds: 3600,
    });
    this.starts = createRateLimiter(context.rateLimitStore, {
      name: 'partial-ip',
      points: context.config.rateLimitPublic,
      windowSeconds: 60,
    });
  }

  /**
   * The link that resumes a partial, `/f/{id}?resume=…` at `PUBLIC_URL` or this machine's own
   * origin (platform/http/link-origin.ts); a path alone when neither is known (then it is shown, never mailed).
   */
  linkFor(request: FastifyRequest, form: StoredForm, token: string): { href: string; absolute: boolean } {
    const origin = linkOrigin(request, this.context.config)?.replace(/\/+$/, '');
    const path = `/f/${encodeURIComponent(form.id)}?resume=${token}`;
    return { href: `${origin ?? ''}${path}`, absolute: origin !== undefined };
  }

  /**
   * Mails the resume link to the respondent's own address, when the answers hold one (the
   * form's first e-mail question answered, kept in the clear or encrypted: a hashed or dropped
   * address is not to be kept, and mailing it would keep it in the outbox), in the page's
   * language, through the outbox; at most a few an hour per mailbox. The address it went to.
   */
  async mailLink(
    form: StoredForm,
    answers: Answers,
    link: string,
    language: string,
  ): Promise<string | undefined> {
    const to = ownAddress(form, answers);
    if (!to) return undefined;
    try {
      await this.mailCap.consume(mailboxKey(to));
    } catch (error) {
      if (error instanceof Problem && error.status === 429) return undefined;
      throw error;
    }
    const words = wordsFor(language);
    const title = form.definition.translations?.[language]?.title || form.title;
    const text = words.say('resumeMailText', { title });
    const message = await emailMessage(
      this.context.envelope,
      {
        to,
        subject: headerSafe(words.say('resumeMailSubject', { title })),
        text: `${text}\n\n${link}\n\n${words.say('savedPrivate')}\n`,
        html: `<!doctype html>\n<html lang="${escapeHtml(language)}"><head><meta charset="utf-8"></head><body>\n<p>${escapeHtml(text)}</p>\n<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>\n<p>${escapeHtml(words.say('savedPrivate'))}</p>\n</body></html>\n`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      },
      { purpose: 'resume-link', formId: form.id },
    );
    await this.context.database.transaction((trx) => appendToOutbox(trx, [message]));
    this.context.outbox.nudge();
    return to;
  }

  /**
   * Saves the answers so far: into the partial of `token` when it is this form's and still
   * partial, else into a new one. `response.partial` goes to the webhooks that ask for it, in
   * the same transaction.
   */
  async save(input: SaveInput): Promise<Saved> {
    const { form } = input;
    // the pages offer no saving for such a form (web/hosted): a post asking for it anyway is refused
    if (!keepsProgress(form))
      throw new Problem(
        409,
        'conflict',
        `The form ${form.id} stores nothing: its answers so far are not kept`,
      );
    const { database, envelope } = this.context;
    const stored = await protectAnswers(keptAnswers(form, input.answers), form.definition, envelope);
    const now = nowIso();
    // a new partial is counted before it is written; saving into one's own is not
    const known =
      input.token === undefined ? undefined : await findLive(database.db, form.id, input.token, now);
    // (completed between this read and the update below, the update changes nothing and the page
    // goes on under the old token: its next post finds the token completed and says so then)
    const sentAlready =
      !known &&
      input.token !== undefined &&
      (await completedUnder(database.db, form.id, input.token, now)) !== undefined;
    if (!known) await this.starts.consume(input.remoteIp);
    const expiresAt = addDays(now, PARTIAL_TTL_DAYS);
    const saved = await database.transaction(async (trx) => {
      // (completed meanwhile, the updates below change nothing: its submission is stored)
      const existing = known;
      let record: StoredSubmission;
      let token: string;
      if (existing) {
        token = input.token as string;
        record = { ...existing, answers: stored, language: input.language, sessionId: input.sessionId };
        await trx
          .updateTable('submissions')
          .set({ answers: encodeJson(stored), language: input.language, session_id: input.sessionId })
          .where('id', '=', existing.id)
          .where('status', '=', 'partial')
          .execute();
        await trx
          .updateTable('partial_progress')
          .set({ question_id: input.questionId ?? null, updated_at: now, expires_at: expiresAt })
          .where('submission_id', '=', existing.id)
          .execute();
      } else {
        token = randomToken(32);
        record = {
          id: newId('sub'),
          workspaceId: form.workspaceId,
          environment: form.environment,
          formId: form.id,
          formVersion: form.version,
          answers: stored,
          sessionId: input.sessionId,
          status: 'partial',
          read: false,
          starred: false,
          language: input.language,
          createdAt: now,
        };
        await insertSubmissions(trx, [record]);
        await trx
          .insertInto('partial_progress')
          .values({
            submission_id: record.id,
            form_id: form.id,
            token_hash: sha256Hex(token),
            question_id: input.questionId ?? null,
            updated_at: now,
            expires_at: expiresAt,
          })
          .execute();
      }
      const queued = await enqueueWebhookEvents(trx, envelope, [
        {
          event: 'response.partial',
          formId: form.id,
          workspaceId: form.workspaceId,
          environment: form.environment,
          occurredAt: now,
          submissionId: record.id,
          data: submissionView(
            record,
            ownerAnswers(stored, input.answers as Record<string, AnswerValue>),
            [],
          ),
        },
      ]);
      return { saved: { submissionId: record.id, token, sentAlready }, queued };
    });
    if (saved.queued > 0) this.context.outbox.nudge();
    return saved.saved;
  }

  /** The partial of this form that `token` resumes, with the respondent's answers back; undefined when gone or expired. */
  async resume(form: StoredForm, token: string | undefined): Promise<Resumed | undefined> {
    // (a partial saved before the form was set to store nothing is not given back: it expires)
    if (!isResumeToken(token) || !keepsProgress(form)) return undefined;
    const found = await findLive(this.context.database.db, form.id, token, nowIso());
    if (!found) return undefined;
    const { answers, dropped } = stillFitting(
      form,
      await respondentAnswers(form, found.answers, this.context.envelope),
      Object.keys(found.answers),
    );
    return {
      submissionId: found.id,
      sessionId: found.sessionId,
      dropped,
      answers,
      questionId: found.questionId,
      language: found.language,
    };
  }

  /**
   * The id of the partial `token` resumes: the id its completion is stored under. Also when it was
   * completed already (a second device with the same link, a moment later): the writer then finds
   * the id taken and the post is "sent already", not a second submission.
   */
  async partialId(form: StoredForm, token: string | undefined): Promise<string | undefined> {
    if (!isResumeToken(token) || !keepsProgress(form)) return undefined;
    const db = this.context.database.db;
    const now = nowIso();
    const live = await findLive(db, form.id, token, now);
    if (live) return live.id;
    return completedUnder(db, form.id, token, now);
  }
}

/** The submission that completed the partial of `token` (kept until the token would have expired). */
async function completedUnder(
  db: AppContext['database']['db'],
  formId: string,
  token: string,
  now: string,
): Promise<string | undefined> {
  const completed = await db
    .selectFrom('completed_progress')
    .select('submission_id')
    .where('token_hash', '=', sha256Hex(token))
    .where('form_id', '=', formId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return completed?.submission_id;
}

/** A live partial of the form by its token: still partial, not expired. */
async function findLive(
  db: Trx | AppContext['database']['db'],
  formId: string,
  token: string,
  now: string,
): Promise<(StoredSubmission & { questionId: string | null }) | undefined> {
  const row = await db
    .selectFrom('partial_progress')
    .innerJoin('submissions', 'submissions.id', 'partial_progress.submission_id')
    .selectAll('submissions')
    .select('partial_progress.question_id')
    .where('partial_progress.token_hash', '=', sha256Hex(token))
    .where('partial_progress.form_id', '=', formId)
    .where('partial_progress.expires_at', '>', now)
    .where('submissions.status', '=', 'partial')
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...submissionFromRow(row), questionId: row.question_id };
}

/** The respondent's address among the answers: the first e-mail question answered whose PII mode keeps it. */
function ownAddress(form: StoredForm, answers: Answers): string | undefined {
  for (const field of form.definition.fields) {
    if (field.type !== 'email') continue;
    const mode = piiModeOf(field, form.definition);
    if (mode === 'hashed' || mode === 'dropped') continue;
    const value = answers[field.id];
    if (isMailAddress(value)) return value;
  }
  return undefined;
}

/**
 * The answers the form as it is now still takes: one saved to a question since removed, or that
 * its question's rules now refuse (an option gone, a limit changed), is left out and counted, so
 * the page can say so and ask it again. Unanswered questions are no concern here.
 */
function stillFitting(
  form: StoredForm,
  answers: Answers,
  saved: readonly string[],
): { answers: Answers; dropped: number } {
  const known = new Set(form.definition.fields.map((field) => field.id));
  let dropped = saved.filter((id) => !known.has(id)).length;
  const refused = new Set(validatorFor(form)(answers).errors.map((error) => error.field));
  const kept: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(answers)) {
    if (refused.has(id)) dropped++;
    else kept[id] = value;
  }
  return { answers: kept, dropped };
}

/** The answers a partial keeps: the form's own, answered; never a file (its upload is not kept past a day). */
function keptAnswers(form: StoredForm, answers: Answers): Record<string, AnswerValue> {
  const kept: Record<string, AnswerValue> = {};
  for (const field of form.definition.fields) {
    if (field.type === 'file' || !Object.hasOwn(answers, field.id)) continue;
    const value = answers[field.id];
    if (isAnswered(value)) kept[field.id] = value as AnswerValue;
  }
  return kept;
}

/**
 * What a respondent gets back of a partial's stored answers: plain and encrypted ones as they
 * were given, masked ones unmasked (they are the respondent's own); hashed ones cannot be, and
 * of dropped ones only a marker is kept (revealAnswers leaves it out).
 */
async function respondentAnswers(
  form: StoredForm,
  stored: StoredAnswers,
  envelope: AppContext['envelope'],
): Promise<Answers> {
  const own: StoredAnswers = {};
  for (const field of form.definition.fields) {
    if (!Object.hasOwn(stored, field.id) || field.type === 'file') continue;
    if (piiModeOf(field, form.definition) === 'hashed') continue;
    const value = stored[field.id];
    // a masked value is kept whole under $masked: given back as it was answered
    own[field.id] =
      value !== null && typeof value === 'object' && !Array.isArray(value) && '$masked' in value
        ? value.$masked
        : (value as StoredAnswers[string]);
  }
  return revealAnswers(own, envelope);
}
