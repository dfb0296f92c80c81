import type { Principal } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { isForeignKeyViolation } from '../../platform/db/dialect.js';
import { createRateLimiter, type RateLimiter, rateLimitHeaders } from '../../platform/rate-limit.js';
import { assertMaySubmit, formNotFound } from '../forms/access.js';
import { findFormCached, type StoredForm } from '../forms/repo.js';
import type { Idempotency } from './idempotency.js';
import { captchaVerifier } from './spam.js';
import { type SubmitDependencies, type SubmitResult, submit } from './submit.js';
import { SubmissionWriter } from './writer.js';

/**
 * How a submission is taken (API.md §6.1), for every door it comes in by: the submit route
 * (JSON and HTML form posts) and the hosted form pages. One service per app, so that there is
 * one writer (a second would split the batches that make the submit path fast) and one set of
 * rate-limit counters.
 */

export interface SubmissionServiceOptions {
  mailFor?: SubmitDependencies['mailFor'];
  /** Largest batch written at once; default in writer.ts. */
  maxBatch?: number;
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
}

export class SubmissionService {
  readonly writer: SubmissionWriter;
  private readonly dependencies: SubmitDependencies;
  private readonly anonymous: RateLimiter;
  private readonly keyed: RateLimiter;

  constructor(
    private readonly context: AppContext,
    options: SubmissionServiceOptions = {},
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
    this.dependencies = {
      context,
      writer: this.writer,
      captcha: captchaVerifier(config.captchaVerifyUrls),
      mailFor: options.mailFor,
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

  /** Spam, validation, PII, then the batched write: the stored submission's summary. */
  async submit(submission: Submission): Promise<SubmitResult> {
    const { form, answers } = submission;
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
      },
      this.dependencies,
    ).catch((error: unknown) => {
      // the form was deleted between reading it and storing the submission
      if (isForeignKeyViolation(error)) throw formNotFound(form.id);
      throw error;
    });
  }

  /** Writes what is queued: requests still answering when the service stops are answered before the database closes. */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
