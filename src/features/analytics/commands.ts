import type { Principal } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { isForeignKeyViolation } from '../../platform/db/dialect.js';
import { forbidden } from '../../platform/problem.js';
import { createRateLimiter, type RateLimiter, rateLimitHeaders } from '../../platform/rate-limit.js';
import { nowIso } from '../../platform/time.js';
import { assertMaySubmit, formNotFound } from '../forms/access.js';
import { findForm, type StoredForm } from '../forms/repo.js';
import { recordEvent } from './repo.js';
import type { EventType } from './schemas.js';

/**
 * Recording the funnel's events (API.md §8): a view and a start, each counted once per
 * session. For `POST /v1/forms/{id}/events` and for the hosted pages, which count their own.
 */
export class EventRecorder {
  private readonly limiter: RateLimiter;

  constructor(private readonly context: Pick<AppContext, 'config' | 'database' | 'rateLimitStore'>) {
    // Its own counter, as many per minute as anonymous submissions: a visit is a view, a start, a submit.
    this.limiter = createRateLimiter(context.rateLimitStore, {
      name: 'events-ip',
      points: context.config.rateLimitPublic,
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

  /** Stores the event, unless this session reported it for this form already. */
  async record(form: StoredForm, type: EventType, sessionId: string): Promise<void> {
    const event = {
      formId: form.id,
      workspaceId: form.workspaceId,
      environment: form.environment,
      type,
      sessionId,
      createdAt: nowIso(),
    };
    await this.context.database
      .transaction((trx) => recordEvent(trx, event))
      .catch((error: unknown) => {
        // the form was deleted between reading it and recording the event
        if (isForeignKeyViolation(error)) throw formNotFound(form.id);
        throw error;
      });
  }
}
