import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { accountRoutes } from './features/accounts/routes.js';
import { analyticsRoutes } from './features/analytics/routes.js';
import { environmentRoutes } from './features/environments/routes.js';
import { formLookup } from './features/forms/repo.js';
import { formRoutes } from './features/forms/routes.js';
import { WebhookAccess } from './features/webhooks/access.js';
import { healthRoutes } from './features/health/routes.js';
import { keyRoutes } from './features/keys/routes.js';
import { EMAIL_KIND, emailHandler, mailBuilder } from './features/submissions/mail.js';
import { RetentionJob } from './features/submissions/retention.js';
import { submissionRoutes } from './features/submissions/routes.js';
import { WebhookSender, webhookHandler } from './features/webhooks/delivery.js';
import { webhookDeliveryRoutes } from './features/webhooks/delivery-routes.js';
import { WEBHOOK_KIND } from './features/webhooks/events.js';
import { webhookRoutes } from './features/webhooks/routes.js';
import { ssrfGuardOn } from './features/webhooks/ssrf.js';
import { installAuthentication } from './platform/auth.js';
import type { AppContext } from './platform/context.js';
import { Envelope } from './platform/crypto/envelope.js';
import { LocalKms, loadMasterKey } from './platform/crypto/kms.js';
import { openDatabase } from './platform/db/database.js';
import { installErrorHandling, sendProblem, toProblem } from './platform/errors.js';
import { clientErrorHandler, drainRefusedBody, refuseBrokenPreflight } from './platform/http/edge.js';
import { screenInput } from './platform/http/input-guard.js';
import { ProblemSchema } from './platform/http/schemas.js';
import { lazySerializers, validatorCompiler } from './platform/http/validation.js';
import { createMailer } from './platform/mail.js';
import { OutboxWorker, type OutboxWorkerOptions } from './platform/outbox.js';
import { Problem } from './platform/problem.js';
import { openRateLimitStore } from './platform/rate-limit.js';

export const BODY_LIMIT = 1024 * 1024;

/** Routes any web page may call (with keys, never cookies): API.md §1, CORS. */
const PUBLIC_ROUTE = /^\/(?:forms\/:[^/]+\/submit|v1\/forms\/:[^/]+\/(?:public|events))\/?$/;
const PUBLIC_PREFLIGHTS = ['/forms/:id/submit', '/v1/forms/:formId/public', '/v1/forms/:formId/events'];

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
}

/**
 * Builds the whole service without listening: `server.ts` listens, tests inject.
 * Closing the returned instance closes the database and every other resource.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const trustedHops = config.trustProxy;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-publishable-key"]'],
    },
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
    // A hop count: only the X-Forwarded-For entries our own proxies appended are believed.
    trustProxy: trustedHops === false ? false : (_address: string, hop: number) => hop < trustedHops,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
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
  const context: AppContext = { config, database, rateLimitStore, envelope, outbox };
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
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  installErrorHandling(app, { production: config.production });
  // A refused body is read to its end (within bounds) before the connection closes: no reset.
  app.addHook('onSend', drainRefusedBody());

  // Browsers read these from cross-origin responses only when told they may.
  const exposedHeaders = [
    'ETag',
    'Location',
    'Link',
    'Deprecation',
    'Retry-After',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'X-Request-Id',
  ];
  // Credentials are bearer tokens and keys, never cookies: no request needs CORS credentials.
  const shared = { credentials: false, exposedHeaders, maxAge: 86_400 };
  const publicCors = { ...shared, origin: true, methods: ['GET', 'HEAD', 'POST'] };
  // Before @fastify/cors, which refuses a preflight missing a header in text/plain.
  app.addHook('onRequest', refuseBrokenPreflight);
  // Everything else: only the origins configured. These are @fastify/cors's static options,
  // normalised once; the public routes carry their own in their route config (below), which
  // costs nothing per request, where a delegator normalised options on every request.
  await app.register(cors, {
    hook: 'onRequest',
    ...shared,
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });
  app.addHook('onRoute', (route) => {
    // @fastify/cors reads `config.cors` of the route; its types do not declare it
    if (PUBLIC_ROUTE.test(route.url ?? ''))
      route.config = { ...route.config, cors: publicCors } as typeof route.config;
  });
  // The preflights of the public paths: their own OPTIONS routes, with the public options
  // (the catch-all OPTIONS route of @fastify/cors answers with the others).
  for (const url of PUBLIC_PREFLIGHTS) {
    app.options(url, { schema: { hide: true } }, async (_request, reply) => reply.status(204).send());
  }

  installAuthentication(app, database);
  app.addHook('preValidation', async (request) => screenInput(request));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Intake',
        version: '1.0.0',
        description:
          'Self-hostable form collection: forms, submissions, keys, webhooks. Errors are RFC 9457 problem details.',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A session token, a secret key or a publishable key',
          },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          publishableKey: { type: 'apiKey', in: 'header', name: 'X-Publishable-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }, { publishableKey: [] }, {}],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes(context));
  await app.register(accountRoutes(context));
  await app.register(environmentRoutes(context));
  await app.register(keyRoutes(context));
  await app.register(formRoutes(context));
  const webhookAccess = new WebhookAccess(formLookup(database.engine));
  await app.register(webhookRoutes(context, webhookAccess));
  await app.register(webhookDeliveryRoutes(context, webhookAccess));
  // Webhook deliveries: queued with the change that causes them, sent by the worker (features/webhooks/delivery.ts).
  const webhookSender = new WebhookSender({
    guard: ssrfGuardOn(config),
    timeoutMs: options.webhookTimeoutMs,
  });
  outbox.handle(WEBHOOK_KIND, webhookHandler(database, envelope, webhookSender, app.log));
  // added before the worker's own onClose hook, so it runs after the worker has stopped
  app.addHook('onClose', async () => webhookSender.close());
  // E-mail: written to the outbox with each submission, sent by the worker after commit.
  const mailer = createMailer(config);
  outbox.handle(EMAIL_KIND, emailHandler(envelope, mailer));
  app.addHook('onReady', async () => outbox.start());
  // onClose hooks run last-added first: this one before the database closes
  app.addHook('onClose', async () => {
    await outbox.stop();
    mailer.close();
  });
  await app.register(
    submissionRoutes(context, {
      mailFor: mailBuilder(envelope),
      mailer,
      maxBatch: options.submitBatchMax,
    }),
  );
  await app.register(analyticsRoutes(context));
  // Deletes submissions past their form's retention, expired idempotency keys, old outbox rows.
  const retention = new RetentionJob(database, { intervalMs: options.retentionIntervalMs, logger: app.log });
  app.addHook('onReady', async () => retention.start());
  app.addHook('onClose', async () => retention.stop());

  await app.ready();
  return app;
}
