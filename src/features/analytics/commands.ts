import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../platform/auth.js';
import { Batcher } from '../../platform/batcher.js';
import type { AppContext } from '../../platform/context.js';
import { isForeignKeyViolation } from '../../platform/db/dialect.js';
import { forbidden } from '../../platform/problem.js';
import { createRateLimiter, type RateLimiter, rateLimitHeaders } from '../../platform/rate-limit.js';
import { nowIso } from '../../platform/time.js';
import type { PostedPage, Step } from '../../shared/walk.js';
import { assertMaySubmit, formNotFound } from '../forms/access.js';
import { findForm, type StoredForm } from '../forms/repo.js';
import { type FormEvent, recordEvent, recordEvents, recordSteps } from './repo.js';
import { type EventType, FORWARDED_TYPES, type StoredEventType } from './schemas.js';
import { stepsSaved, stepsTaken, walksOneByOne } from './steps.js';

const eventOf = (form: StoredForm, type: StoredEventType, sessionId: string): FormEvent => ({
  formId: form.id,
  workspaceId: form.workspaceId,
  environment: form.environment,
  type,
  sessionId,
  createdAt: nowIso(),
});

/**
 * How long the hosted page's views wait in memory for others before they are stored together:
 * a busy page's views then take one statement and one commit each 10 ms, not one a turn of the
 * event loop (issue 24). A crash loses at most the views of that long and of the batch being
 * stored; a shutdown stores them all (`flush`).
 */
const VIEWS_LINGER_MS = 10;

/**
 * Recording the funnel's events (API.md §8): a view and a start, each counted once per
 * session. For `POST /v1/forms/{id}/events` and for the hosted pages, which count their own;
 * and the hosted page's steps through a one-by-one form, for its drop-off (API.md §15).
 */
export class EventRecorder {
  private readonly limiter: RateLimiter;
  private readonly pageLimiter: RateLimiter;
  /** The hosted page's views, stored in batches behind the page's answer (`recordLater`). */
  private readonly later: Batcher<{ event: FormEvent; log: FastifyBaseLogger }>;

  constructor(private readonly context: Pick<AppContext, 'config' | 'database' | 'rateLimitStore'>) {
    this.later = new Batcher((batch) => this.storeLater(batch), { maxBatch: 500, lingerMs: VIEWS_LINGER_MS });
    // Its own counter, as many per minute as anonymous submissions: a visit is a view, a start, a submit.
    this.limiter = createRateLimiter(context.rateLimitStore, {
      name: 'events-ip',
      points: context.config.rateLimitPublic,
      windowSeconds: 60,
    });
    // The hosted page's own: ten times as many, as uploads have. A page is served to whoever asks
    // (it is not rate-limited), and a class or an office behind one address opening a shared link
    // in the same minute are as many visits; past ten times the submissions' limit, one address is
    // a robot reloading, and its views are left out rather than counted.
    this.pageLimiter = createRateLimiter(context.rateLimitStore, {
      name: 'page-events-ip',
      points: context.config.rateLimitPublic * 10,
      windowSeconds: 60,
    });
  }

  /**
   * The form `formId`, when `principal` may report on it: whoever may submit to it (§6.1),
   * live forms from anyone; never a session (views come from visitors and integrations).
   */
  async formFor(principal: Principal | null, formId: string): Promise<StoredForm> {
    const form = await findForm(this.context.database.db, formId);
    if (!form) throw formNotFound(formId);
    if (principal?.kind === 'session') {
      throw forbidden(
        'Views and starts come from visitors or integrations: use no credential, or an API key',
      );
    }
    assertMaySubmit(principal, form);
    return form;
  }

  /** Counts one report against the client address: the `RateLimit-*` headers, or a 429 problem. */
  async countAttempt(remoteIp: string): Promise<Record<string, string>> {
    return rateLimitHeaders(await this.limiter.consume(remoteIp));
  }

  /** Counts one event of the hosted page (a view, a start, a step) against the client address; throws 429 past its limit. */
  async countPageEvent(remoteIp: string): Promise<void> {
    await this.pageLimiter.consume(remoteIp);
  }

  /** Stores the event, unless this session reported it for this form already. */
  async record(form: StoredForm, type: EventType, sessionId: string): Promise<void> {
    const event = eventOf(form, type, sessionId);
    await this.context.database
      .transaction((trx) => recordEvent(trx, event))
      .catch((error: unknown) => {
        // the form was deleted between reading it and recording the event
        if (isForeignKeyViolation(error)) throw formNotFound(form.id);
        throw error;
      });
  }

  /**
   * Stores the event behind the caller's answer: the hosted page, the most-read URL, answers
   * without waiting on the database (issue 24). Events queued while a batch is being stored go
   * into the next one: one multi-row statement and one commit for all the views of a busy
   * moment, as the submission writer does. A shutdown stores what is queued (`flush`, on close);
   * a crash loses what was queued and not yet committed: VIEWS_LINGER_MS of views and a batch.
   */
  recordLater(form: StoredForm, type: EventType, sessionId: string, log: FastifyBaseLogger): void {
    this.later.add({ event: eventOf(form, type, sessionId), log });
  }

  /**
   * A submission of a form that stores nothing (`storage.mode: "none"`): counted by the analytics
   * from this row alone, stored behind the answer like the page's views (a crash may lose the
   * last moment's, as theirs).
   */
  recordForwarded(
    form: StoredForm,
    submission: { id: string; status: string; createdAt: string },
    log: FastifyBaseLogger,
  ): void {
    const type = Object.hasOwn(FORWARDED_TYPES, submission.status)
      ? FORWARDED_TYPES[submission.status as keyof typeof FORWARDED_TYPES]
      : undefined;
    // dated as the submission is (its day in the series), not when the row is written
    if (type)
      this.later.add({
        event: { ...eventOf(form, type, submission.id), createdAt: submission.createdAt },
        log,
      });
  }

  /**
   * Resolves once every event queued by `recordLater` so far is stored (or given up on): what
   * a read of the counts waits for; events queued after the call do not hold it up.
   */
  flush(): Promise<void> {
    return this.later.flush();
  }

  /** Resolves once nothing is queued or being stored: a close waits for it. */
  drain(): Promise<void> {
    return this.later.drain();
  }

  private async storeLater(
    batch: ReadonlyArray<{ event: FormEvent; log: FastifyBaseLogger }>,
  ): Promise<void> {
    const { database } = this.context;
    const events = batch.map(({ event }) => event);
    try {
      // SQLite: through the group commit; PostgreSQL: one statement, committed on its own
      if (database.engine === 'postgres') await recordEvents(database.db, events);
      else await database.transaction((trx) => recordEvents(trx, events));
    } catch {
      // one event broke the batch (its form deleted meanwhile, say): each on its own, so only it is lost
      for (const { event, log } of batch) {
        await database
          .transaction((trx) => recordEvent(trx, event))
          .catch((error: unknown) => {
            if (!isForeignKeyViolation(error))
              log.warn(
                { err: error, formId: event.formId, type: event.type },
                'an analytics event was not stored',
              );
          });
      }
    }
  }

  /**
   * Drop-off (API.md §15): the steps one post of a one-by-one hosted page took (steps.ts), for
   * the session the page carries: one statement. Never the owner's preview, never a classic
   * form's post (the caller's and this method's checks). Counted against the same per-address
   * limit as views and starts, so one address cannot fill the table faster than it fills the
   * events. Like the page's views and starts it never fails the page: over the limit, or when
   * storing fails, the steps are left out and logged.
   */
  async recordSteps(
    form: StoredForm,
    sessionId: string,
    posted: PostedPage,
    /** Where the post leads, or `saved`: "Save and continue later" (its answers kept as a partial). */
    step: Step | 'saved',
    ip: string,
    log: FastifyBaseLogger,
  ): Promise<void> {
    if (!walksOneByOne(form.definition)) return;
    const rows =
      step === 'saved' ? stepsSaved(form.definition, posted) : stepsTaken(form.definition, posted, step);
    if (rows.length === 0) return;
    try {
      await this.countPageEvent(ip);
      await this.context.database.transaction((trx) => recordSteps(trx, form.id, sessionId, rows, nowIso()));
    } catch (error) {
      log.warn({ err: error, formId: form.id }, 'the page could not record its drop-off steps');
    }
  }
}
