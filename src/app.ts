import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { registerAccounts, sessionCredentials } from './features/accounts/index.js';
import type { EventRecorder } from './features/analytics/commands.js';
import { registerAnalytics } from './features/analytics/index.js';
import { registerEnvironments } from './features/environments/index.js';
import { registerFiles } from './features/files/index.js';
import { registerForms } from './features/forms/index.js';
import { formLookup } from './features/forms/repo.js';
import { registerHealth } from './features/health/index.js';
import { keyCredentials, registerKeys } from './features/keys/index.js';
import { listKeysOfUser } from './features/keys/repo.js';
import { addressBookOf } from './features/submissions/address-claims.js';
import { registerSubmissions } from './features/submissions/index.js';
import { registerWebhooks } from './features/webhooks/index.js';
import { listWebhooksOfWorkspaces } from './features/webhooks/repo.js';
import { registerWorkspaces } from './features/workspaces/index.js';
import { workspaceIdsOf } from './features/workspaces/repo.js';
import { installAuthentication } from './platform/auth.js';
import type { AppContext } from './platform/context.js';
import { Envelope } from './platform/crypto/envelope.js';
import { LocalKms, loadMasterKey } from './platform/crypto/kms.js';
import { openDatabase } from './platform/db/database.js';
import { installErrorHandling, sendProblem, toProblem } from './platform/errors.js';
import { PasswordHasher } from './platform/hashing.js';
import { installCors } from './platform/http/cors.js';
import { clientErrorHandler, drainRefusedBody, requestId } from './platform/http/edge.js';
import { installEmptyBodies } from './platform/http/empty-body.js';
import { FrontDoor } from './platform/http/front-door.js';
import { installGracefulClose } from './platform/http/graceful-close.js';
import { screenInput } from './platform/http/input-guard.js';
import { installOpenApi } from './platform/http/openapi.js';
import { ProblemSchema } from './platform/http/schemas.js';
import { lazySerializers, validatorCompiler } from './platform/http/validation.js';
import { createMailer } from './platform/mail.js';
import { EMAIL_KIND, emailHandler } from './platform/mail-outbox.js';
import { OutboxWorker, type OutboxWorkerOptions } from './platform/outbox.js';
import { Problem } from './platform/problem.js';
import { openRateLimitStore } from './platform/rate-limit.js';
import { lazyRequestLogger } from './platform/request-logger.js';
import { formPostPages } from './web/form-post-pages.js';
import { registerWeb } from './web/index.js';

export const BODY_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's resources, for the entry point and tests. */
    intake: AppContext;
  }
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Timing of the outbox worker (tests shorten it); defaults in outbox.ts. */
  outbox?: Pick<OutboxWorkerOptions, 'pollMs' | 'leaseMs' | 'retryDelaysMs' | 'concurrency'>;
  /** How long a webhook receiver may take to answer (tests shorten it); default 10 s (API.md §7). */
  webhookTimeoutMs?: number;
  /** How often the retention job runs (tests shorten it); default hourly, see retention.ts. */
  retentionIntervalMs?: number;
  /** Largest batch of submissions written at once (tests make it small, to overload at a low rate); default 500. */
  submitBatchMax?: number;
  /** How often the file sweep runs (tests shorten it); default hourly, see features/files/sweep.ts. */
  fileSweepIntervalMs?: number;
  /** scrypt's cost for new password hashes, as log2 N; default 15. Tests lower it: a hash then takes a millisecond, not a hundred. */
  passwordLog2Cost?: number;
}

/** The logger's options: credentials, and the tokens of mailed links, never logged. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: [
      'req.headers.authorization',
      'req.headers["x-api-key"]',
      'req.headers["x-publishable-key"]',
      'req.headers.cookie',
      'req.headers["x-csrf-token"]',
    ],
    serializers: {
      // A password-reset or invitation link's token (GET /app/reset?token=…, /app/invite?token=…)
      // is a credential while it lasts: never logged, on any path.
      req: (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
        method: request.method,
        url: request.url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]'),
        host: request.hostname,
        remoteAddress: request.ip,
      }),
    },
  };
}

/**
 * Builds the whole service without listening: `server.ts` listens, tests inject.
 * Closing the returned instance closes the database and every other resource.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const trustedHops = config.trustProxy;
  // A hop count: only the X-Forwarded-For entries our own proxies appended are believed.
  const trustProxy = trustedHops === false ? false : (_address: string, hop: number) => hop < trustedHops;
  // the hosted form's first page answered before routing, once routed (web/hosted/replays.ts)
  const frontDoor = new FrontDoor(trustProxy);
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    bodyLimit: BODY_LIMIT,
    // Path parameters are bounded by the routes' schemas (400 invalid_parameter naming the member),
    // not by the router's much smaller default, which answered a bare 414.
    routerOptions: { maxParamLength: 2048 },
    // Errors raised by the router itself (bad percent-encoding, over-long parameters)
    // are problem documents like every other error (these replies skip the hooks: hence the id here).
    frameworkErrors: (error, request, reply) =>
      sendProblem(
        reply.header('x-request-id', request.id),
        toProblem(error) ??
          new Problem(500, 'internal', `An unexpected error occurred; quote request id ${request.id}`),
      ),
    // Requests Node's HTTP parser refuses (431, 414, 400, 408) are problem documents too.
    clientErrorHandler: clientErrorHandler(),
    trustProxy,
    serverFactory: frontDoor.serverFactory,
    // A client's X-Request-Id is kept only when it is a UUID (requestId in edge.ts): it goes
    // into every log line of the request and back out in the answer.
    requestIdHeader: false,
    genReqId: requestId,
    // each request's logger made only when it logs (platform/request-logger.ts)
    childLoggerFactory: lazyRequestLogger,
    ajv: { customOptions: { allErrors: true } },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
  });
  const database = await openDatabase({
    ...config,
    onWait: ({ waitedMs, error }) =>
      app.log.warn({ waitedS: Math.round(waitedMs / 1000), err: error }, 'waiting for the database'),
  });
  const rateLimitStore = await openRateLimitStore(config.redisUrl);
  const masterKey = loadMasterKey(config.masterKey, config.dataDir);
  const envelope = new Envelope(new LocalKms(masterKey.key));
  const outbox = new OutboxWorker(database, { logger: app.log, ...options.outbox });
  const mailer = createMailer(config);
  const passwords = new PasswordHasher(options.passwordLog2Cost);
  const context: AppContext = {
    config,
    database,
    rateLimitStore,
    envelope,
    outbox,
    mailer,
    passwords,
    frontDoor,
  };
  // Every feature's e-mail goes through the outbox (platform/mail-outbox.ts), sent by one handler.
  outbox.handle(EMAIL_KIND, emailHandler(envelope, mailer));
  app.decorate('intake', context);
  if (masterKey.generated && config.databaseUrl) {
    app.log.warn('generated a master key into DATA_DIR: set MASTER_KEY to the same value on every instance');
  }
  app.addHook('onClose', async () => {
    await database.close();
    await rateLimitStore.close();
  });

  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ProblemSchema);
  // Only JSON by default; form posts are accepted where a route says so.
  app.removeContentTypeParser('text/plain');
  installGracefulClose(app);
  app.addHook('preClose', async () => frontDoor.close());
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  installErrorHandling(app, { production: config.production });
  installEmptyBodies(app);
  // A refused body is read to its end (within bounds) before the connection closes: no reset.
  app.addHook('onSend', drainRefusedBody());

  await installCors(app, config);
  await installAuthentication(app, {
    ...keyCredentials(database),
    ...sessionCredentials(database),
    secureCookie: config.production,
  });
  app.addHook('preValidation', async (request) => screenInput(request));

  await installOpenApi(app);

  app.addHook('onReady', async () => outbox.start());
  // onClose hooks run last-added first. Added before the features', this one runs after them
  // (the retention job stopped, the last submissions flushed into the outbox) and before the
  // database closes: the worker stops, then the connections its handlers send through close.
  app.addHook('onClose', async () => {
    await outbox.close();
    mailer.close();
  });

  // The features, lowest first (ARCHITECTURE.md, "Layers"); each registers its routes, outbox
  // handlers, periodic jobs and close hooks.
  await registerHealth(app, context);
  // what else reaches an account, for the mail after its password is set: keys and webhooks
  // are features beside and above accounts, so their lists are handed down from here
  await registerAccounts(app, context, {
    accessOf: async (db, userId, limit) => {
      const [keys, webhooks] = await Promise.all([
        listKeysOfUser(db, userId, limit),
        // the webhooks of the workspaces they own: who else would be told of a password change
        workspaceIdsOf(db, userId, ['owner']).then((ids) => listWebhooksOfWorkspaces(db, ids, limit)),
      ]);
      return { keys, webhooks };
    },
  });
  await registerEnvironments(app, context);
  await registerWorkspaces(app, context);
  await registerKeys(app, context);
  await registerWebhooks(app, context, {
    forms: formLookup(database.engine),
    timeoutMs: options.webhookTimeoutMs,
  });
  // files before forms: a deleted form's files (its submissions' and its unused uploads) are swept
  const files = await registerFiles(app, context, {
    masterKey: masterKey.key,
    sweepIntervalMs: options.fileSweepIntervalMs,
  });
  await registerForms(app, context, {
    afterDelete: (formId) => {
      files.sweep.nudge();
      addressBookOf(database).doubtForm(formId);
    },
  });
  // the analytics count what forms that store nothing forward (registered below: bound late)
  let events: EventRecorder | undefined;
  const submissions = await registerSubmissions(app, context, {
    forwarded: (form, submission) => events?.recordForwarded(form, submission, app.log),
    files,
    // the HTML pages of plain form posts: drawn by the pages, which the features may not import
    formPostPages,
    maxBatch: options.submitBatchMax,
    retentionIntervalMs: options.retentionIntervalMs,
    masterKey: masterKey.key,
  });
  events = await registerAnalytics(app, context);
  // The pages submit and count through the features' own services (ARCHITECTURE.md, "Layers").
  await registerWeb(app, context, { submissions, events });

  await app.ready();
  return app;
}
