import { hkdfSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import type { Files } from '../files/index.js';
import type { FormPostPages } from './form-posts.js';
import { autoResponseCap, mailBuilder } from './mail.js';
import { RetentionJob } from './retention.js';
import { submissionRoutes } from './routes.js';
import { SubmissionService, type SubmissionServiceOptions } from './service.js';
import { summaryRoutes } from './summary.js';

export interface SubmissionsOptions {
  /** Files (features/files): the service the submit path and the owner's downloads use, the sweep to nudge after deletions. */
  files: Files;
  /** The HTML pages a plain form post is answered with: drawn in web/ (form-post-pages.tsx), handed over by app.ts. */
  formPostPages: FormPostPages;
  /** Largest batch of submissions written at once (tests make it small, to overload at a low rate); default 500. */
  maxBatch?: number;
  /** How often the retention job runs (tests shorten it); default hourly, see retention.ts. */
  retentionIntervalMs?: number;
  /** The master key: response controls derive their secret from it (address hashes, the hosted page's cookies). */
  masterKey: Buffer;
  /** Told of each submission of a form that stores nothing, for the analytics to count (app.ts). */
  forwarded?: SubmissionServiceOptions['forwarded'];
}

/**
 * Submissions (API.md §6): the submit path, the owner's inbox, notification e-mails (sent by
 * the outbox after commit) and the retention job. Hands back the service that takes
 * submissions, for the pages to submit through.
 */
export async function registerSubmissions(
  app: FastifyInstance,
  context: AppContext,
  options: SubmissionsOptions,
): Promise<SubmissionService> {
  const submissions = new SubmissionService(context, {
    mailFor: mailBuilder(context.envelope, autoResponseCap(context.rateLimitStore)),
    forwarded: options.forwarded,
    maxBatch: options.maxBatch,
    files: options.files.service,
    // the same on every instance sharing the master key, and changed with it
    controlsKey: Buffer.from(
      hkdfSync('sha256', options.masterKey, Buffer.alloc(0), 'intake response controls v1', 32),
    ),
  });
  await app.register(
    submissionRoutes(context, submissions, {
      mailer: context.mailer,
      formPostPages: options.formPostPages,
      files: options.files.service,
      fileSweep: options.files.sweep,
    }),
  );
  await app.register(summaryRoutes(context));
  // Requests still answering when the service stops are answered from this batch, before the database closes.
  app.addHook('onClose', async () => submissions.flush());
  // Deletes submissions past their form's retention, expired idempotency keys, old outbox rows.
  const retention = new RetentionJob(context.database, {
    intervalMs: options.retentionIntervalMs,
    logger: app.log,
    auditRetentionDays: context.config.auditRetentionDays,
    afterDeletingSubmissions: () => options.files.sweep.nudge(),
  });
  app.addHook('onReady', async () => retention.start());
  app.addHook('onClose', async () => retention.stop());
  return submissions;
}
