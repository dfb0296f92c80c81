import type { Principal } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { isForeignKeyViolation } from '../../platform/db/dialect.js';
import { Problem } from '../../platform/problem.js';
import { createRateLimiter, type RateLimiter, rateLimitHeaders } from '../../platform/rate-limit.js';
import type { ClosedReason, FieldError } from '../../shared/form.js';
import { type Answers, visibleAnswers } from '../../shared/logic.js';
import type { FileService } from '../files/service.js';
import { assertMaySubmit, formNotFound } from '../forms/access.js';
import { findFormCached, type StoredForm } from '../forms/repo.js';
import { ResponseControls } from './controls.js';
import { captchaTokenOf, redirectTarget } from './form-posts.js';
import { type Idempotency, idempotencyFor } from './idempotency.js';
import { SavedProgress } from './progress.js';
import { captchaVerifier, type SpamSource } from './spam.js';
import {
  type SubmitDependencies,
  type SubmitInput,
  type SubmitResult,
  submit,
  submitOutcome,
} from './submit.js';
import { validatorFor } from './validator.js';
import { SubmissionWriter } from './writer.js';

/**
 * How a submission is taken (API.md §6.1), for every door it comes in by: the submit route
 * (JSON and HTML form posts) and the hosted form pages. One service per app, so that there is
 * one writer (a second would split the batches that make the submit path fast) and one set of
 * rate-limit counters.
 */

export interface SubmissionServiceOptions {
  /** Files (features/files): uploads judged and attached by the submit path. */
  files: FileService;
  mailFor?: SubmitDependencies['mailFor'];
  forwarded?: SubmitDependencies['forwarded'];
  /** Largest batch written at once; default in writer.ts. */
  maxBatch?: number;
  /** The secret (derived from the master key) that keys address hashes and signs the hosted page's cookies. */
  controlsKey: Buffer;
}

/** What a respondent sent, as read by whichever door it came through. */
export interface Submission {
  form: StoredForm;
  principal: Principal | null;
  /** fieldId → value, the honeypot field (if any) among them. */
  answers: Record<string, unknown>;
  sessionId: string | undefined;
  captchaToken: string | undefined;
  remoteIp: string | undefined;
  idempotency?: Idempotency;
  /** The language the form was shown in (API.md §13); the form's own when not given. */
  language?: string | undefined;
  /** `X-Form-Password`, for a form with a password (API.md §15). */
  password?: string | undefined;
}

/** A post of a form's page (web/hosted), read: what `submitPost` takes. */
export interface PagePost {
  form: StoredForm;
  /** Every name the page posted (form-posts.ts `formFields`): the honeypot and the CAPTCHA's token are read from them. */
  fields: Readonly<Record<string, unknown>>;
  /** The answers to the form's fields, parsed (form-posts.ts `answersOf`); those the logic hides are dropped here. */
  answers: Answers;
  /** The page's session (its `_session`); a post asking for JSON may send none. */
  sessionId: string | undefined;
  /** The page's idempotency key (its `_idempotency`; a post asking for JSON: its `Idempotency-Key` first): a double post stores once. */
  idempotencyKey: string | undefined;
  remoteIp: string;
  /** The owner's preview: validated like a real post, then nothing stored, counted or sent. */
  preview: boolean;
  /** The language the page was shown in. */
  language: string;
  /** The partial this post completes (API.md §15 saved progress): the submission takes its id. */
  completes?: string | undefined;
  /** The files this post brought, by upload id: what each counts as in the idempotency hash (idempotency.ts). */
  sameFiles?: ReadonlyMap<string, string> | undefined;
}

/**
 * How a page's post ended, for the page to answer in its words:
 * - `stored`: the submission's id, and where the browser goes next (`ui.redirectUrl`), if anywhere;
 * - `previewed`: the owner's preview passed validation (nothing stored);
 * - `invalid`: every error the validator found, the answers to mend;
 * - `captcha-undone`: the form has a CAPTCHA and the post no token: the respondent's to do, nothing judged yet;
 * - `spam`: refused (action `reject`), by the honeypot, a rule, or the CAPTCHA (which the respondent may do again);
 * - `sent-already`: the page's idempotency key came before with other answers: nothing more stored.
 * `headers` are the submit rate limit's (`RateLimit-*`), for every post that counted.
 */
export type PostResult = { headers: Record<string, string> } & (
  | { outcome: 'stored'; submissionId: string; redirect: string | undefined }
  | { outcome: 'previewed' }
  | { outcome: 'invalid'; errors: FieldError[] }
  | { outcome: 'captcha-undone' }
  | { outcome: 'spam'; source: SpamSource }
  | { outcome: 'sent-already' }
  | { outcome: 'closed'; reason: ClosedReason }
  | { outcome: 'already-submitted' }
);

export class SubmissionService {
  readonly writer: SubmissionWriter;
  /** Response controls (API.md §15): open or closed, the password, the cookies of the hosted page. */
  readonly controls: ResponseControls;
  /** Saved progress (API.md §15): a one-by-one form's partial responses. */
  readonly progress: SavedProgress;
  private readonly dependencies: SubmitDependencies;
  private readonly anonymous: RateLimiter;
  private readonly keyed: RateLimiter;

  constructor(
    private readonly context: AppContext,
    options: SubmissionServiceOptions,
  ) {
    const { config, database, envelope, rateLimitStore } = context;
    // Two batches at once: one builds while the other waits on its commit (or WAL flush).
    this.writer = new SubmissionWriter(database, {
      maxInFlight: 2,
      maxBatch: options.maxBatch,
      // under overload: refused at once rather than queued without end (503, Retry-After)
      maxQueued: config.writeQueueLimit,
      deadlineMs: config.requestDeadlineMs,
      envelope,
      afterCommit: () => context.outbox.nudge(),
    });
    this.controls = new ResponseControls(context, options.controlsKey);
    this.progress = new SavedProgress(context);
    this.dependencies = {
      context,
      controls: this.controls,
      writer: this.writer,
      captcha: captchaVerifier(config.captchaVerifyUrls),
      files: options.files,
      mailFor: options.mailFor,
      forwarded: options.forwarded,
    };
    this.anonymous = createRateLimiter(rateLimitStore, {
      name: 'submit-ip',
      points: config.rateLimitPublic,
      windowSeconds: 60,
    });
    this.keyed = createRateLimiter(rateLimitStore, {
      name: 'submit-user',
      points: config.rateLimitAuthenticated,
      windowSeconds: 60,
    });
  }

  /** Files: what the pages take a post's files through (features/files). */
  get files(): FileService {
    return this.dependencies.files;
  }

  /** The form `formId`, when `principal` may submit to it now; else the problem (404, 403). */
  async formFor(principal: Principal | null, formId: string): Promise<StoredForm> {
    const form = await findFormCached(this.context.database.db, formId);
    if (!form) throw formNotFound(formId);
    assertMaySubmit(principal, form);
    return form;
  }

  /**
   * Counts one attempt against the caller's limit (per client address when anonymous, per
   * user with a key): the `RateLimit-*` headers, or a 429 problem once the window is spent.
   */
  async countAttempt(principal: Principal | null, remoteIp: string): Promise<Record<string, string>> {
    const state = principal
      ? await this.keyed.consume(principal.userId)
      : await this.anonymous.consume(remoteIp);
    return rateLimitHeaders(state);
  }

  /** Spam, validation, PII, then the batched write (the API's door): the stored submission's summary, or the problem. */
  async submit(submission: Submission): Promise<SubmitResult> {
    const { form, answers } = submission;
    // the password keeps out respondents; a secret key is the owner's own integration
    if (submission.principal?.kind !== 'secret')
      await this.controls.assertPassword(form, submission.password, submission.remoteIp ?? '');
    const honeypot = form.definition.spamProtection?.honeypot?.field;
    const { [honeypot ?? '']: honeypotValue, ...rest } = answers;
    return submit(
      {
        form,
        principal: submission.principal,
        answers: honeypot ? rest : answers,
        // own members only: a honeypot named `toString` is not filled in by Object.prototype
        honeypotValue: honeypot && Object.hasOwn(answers, honeypot) ? honeypotValue : undefined,
        sessionId: submission.sessionId,
        captchaToken: submission.captchaToken,
        remoteIp: submission.remoteIp,
        idempotency: submission.idempotency,
        language: submission.language,
      },
      this.dependencies,
    ).catch(formGone(form));
  }

  /**
   * The errors the validator finds in a page's answers, storing nothing: those the logic hides
   * are dropped first (API.md §11.1: on a page they are dropped, not refused), and blank ones.
   */
  validatePage(form: StoredForm, answers: Answers): FieldError[] {
    return validatorFor(form)(visibleAnswers(form.definition.logic, answers).answers).errors;
  }

  /**
   * A browser's post of a form's page (web/hosted), the last page of a one-by-one form or a
   * classic one: counted against the anonymous rate limit, then submitted like the API's
   * (spam, validation, PII, the batched write), every ending a value the page words itself.
   */
  async submitPost(post: PagePost): Promise<PostResult> {
    const { form, fields } = post;
    if (post.preview) {
      const errors = this.validatePage(form, post.answers);
      return errors.length > 0
        ? { headers: {}, outcome: 'invalid', errors }
        : { headers: {}, outcome: 'previewed' };
    }
    // the submit rate limit counts submissions, not the pages of a one-by-one form on the way
    const headers = await this.countAttempt(null, post.remoteIp);
    // A CAPTCHA left undone is the respondent's to fix, on the form with their answers: not spam yet.
    if (form.definition.spamProtection?.captcha && captchaTokenOf(fields) === undefined)
      return { headers, outcome: 'captcha-undone' };
    const input = pageInput(post);
    try {
      const ended = await submitOutcome(input, this.dependencies).catch(formGone(form));
      if (ended.outcome === 'invalid') return { headers, outcome: 'invalid', errors: ended.errors };
      if (ended.outcome === 'spam') return { headers, outcome: 'spam', source: ended.source };
      const redirect = redirectTarget(form, undefined)?.href;
      return { headers, outcome: 'stored', submissionId: ended.result.id, redirect };
    } catch (error) {
      if (error instanceof Problem && error.code === 'form_closed')
        return { headers, outcome: 'closed', reason: closedReasonIn(error) };
      if (error instanceof Problem && error.code === 'already_submitted')
        return { headers, outcome: 'already-submitted' };
      // The same page sent again with other answers (Back after the thank-you page, answers
      // changed), or while its first post is still being stored: its key is spent.
      if (error instanceof Problem && error.status === 409) return { headers, outcome: 'sent-already' };
      throw error;
    }
  }

  /**
   * A page's post that asks for JSON (API.md §12: "answered like the JSON submit"): read as a
   * page's post is (hidden answers dropped, the page's controls no answers), judged like the
   * API's, every refusal a problem. The caller counted the attempt and checked the password.
   */
  async submitPostAsJson(post: PagePost): Promise<SubmitResult> {
    return submit(pageInput(post), this.dependencies).catch(formGone(post.form));
  }

  /** Writes what is queued: requests still answering when the service stops are answered before the database closes. */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}

/** A page's post as the submit path takes it: anonymous, the honeypot and CAPTCHA read from the post's top level. */
function pageInput(post: PagePost): SubmitInput {
  const { form, fields } = post;
  const answers = visibleAnswers(form.definition.logic, post.answers).answers;
  const honeypot = form.definition.spamProtection?.honeypot?.field;
  return {
    form,
    principal: null,
    answers,
    // read from the top level of the post, where the page's hidden input puts it (never an answer)
    honeypotValue: honeypot && Object.hasOwn(fields, honeypot) ? fields[honeypot] : undefined,
    sessionId: post.sessionId,
    captchaToken: captchaTokenOf(fields),
    remoteIp: post.remoteIp,
    idempotency: idempotencyFor(post.idempotencyKey, { answers, sessionId: post.sessionId }, post.sameFiles),
    language: post.language,
    completes: post.completes,
  };
}

/** Why a `form_closed` problem (controls.ts `formClosed`) refused, or `closed` for a status that takes none. */
function closedReasonIn(problem: Problem): ClosedReason {
  const reason = problem.options.extensions?.reason;
  return reason === 'not_yet_open' || reason === 'full' ? reason : 'closed';
}

/** The form was deleted between reading it and storing the submission: 404, as if it had never been found. */
const formGone =
  (form: StoredForm) =>
  (error: unknown): never => {
    if (isForeignKeyViolation(error)) throw formNotFound(form.id);
    throw error;
  };
