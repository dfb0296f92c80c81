import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { PROBLEM_CONTENT_TYPE } from '../errors.js';
import { emptyBodyIsNone } from './empty-body.js';
import {
  EXTRA_REQUEST_MEDIA,
  HEADER_REF_PREFIX,
  PROBLEM_STATUSES,
  type ProblemStatusCode,
  RESPONSE_HEADERS,
} from './schemas.js';

/**
 * The OpenAPI document (`/openapi.json`), built from the routes' own TypeBox schemas, and its
 * reader at `/docs`.
 *
 * Each route describes what is its own: `operationId`, `security`, its body and parameters, its
 * answers (`withHeaders`, `respond`, `noBody`, `problems` in schemas.ts). What every operation
 * may answer is added here, from facts about the route rather than by each route repeating it:
 * 400 (a query or path the input guard or router refuses), 401 (a credential that is not valid,
 * on any route), 500, 503 (every route meets the database, if only to check a credential), 403
 * where the session cookie is read (CSRF, another origin), 413 and 415 where a body is parsed
 * (POST, PUT, PATCH, DELETE), the `X-CSRF-Token` parameter where the cookie may authorize a
 * change, and `X-Request-Id` on every answer. Where a credential is taken, the workspace the
 * request acts in (API.md §14: `X-Intake-Workspace` or `?workspace=`), with its 403 (no member)
 * and 404 (a malformed id).
 */

/** Doc-only facts about a route, handed from `transform` (which sees the route) to `transformObject`. */
const ROUTE_FACTS = 'x-intake-route';

interface RouteFacts {
  readsCookie: boolean;
  optionalBody: boolean;
}

/** The few parts of the generated document this file completes. */
interface MediaObject {
  schema?: unknown;
}
interface HeaderObject {
  $ref?: string;
  schema?: { $ref?: unknown };
}
interface ResponseObject {
  $ref?: string;
  description?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaObject>;
}
interface OperationObject {
  parameters?: unknown[];
  security?: unknown[];
  requestBody?: { required?: boolean; content: Record<string, MediaObject> };
  responses?: Record<string, ResponseObject>;
  [ROUTE_FACTS]?: RouteFacts;
  [EXTRA_REQUEST_MEDIA]?: Record<string, MediaObject>;
}
type PathItem = Partial<Record<string, OperationObject>>;

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const UNIVERSAL: ProblemStatusCode[] = [400, 401, 500, 503];
/** For answers whose schema gives no description (@fastify/swagger would say "Default Response"). */
const STATUS_TEXT: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

const responseRef = (status: ProblemStatusCode) => ({
  $ref: `#/components/responses/${PROBLEM_STATUSES[status].name}`,
});
const headerRef = (name: string) => ({ $ref: `${HEADER_REF_PREFIX}${name}` });

/** The shared problem answers, `components/responses`. */
function problemComponents(): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  for (const spec of Object.values(PROBLEM_STATUSES)) {
    const headers: Record<string, HeaderObject> = { 'X-Request-Id': headerRef('X-Request-Id') };
    for (const name of 'headers' in spec ? spec.headers : []) headers[name] = headerRef(name);
    out[spec.name] = {
      description: spec.description,
      headers,
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  return out;
}

/** The header placeholders of schemas.ts (`{schema: {$ref}}` once @fastify/swagger is done) as header references. */
function fixHeaders(response: ResponseObject): void {
  const headers: Record<string, HeaderObject> = { 'X-Request-Id': headerRef('X-Request-Id') };
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const ref = header?.schema?.$ref;
    headers[name] = typeof ref === 'string' && ref.startsWith(HEADER_REF_PREFIX) ? { $ref: ref } : header;
  }
  response.headers = headers;
}

/** A route's problem answer that is the standard one of its status: replaced by its shared definition. */
function isStandardProblem(status: string, response: ResponseObject): boolean {
  const spec = PROBLEM_STATUSES[Number(status) as ProblemStatusCode];
  if (!spec || response.description !== spec.description) return false;
  const types = Object.keys(response.content ?? {});
  return types.length === 1 && types[0] === PROBLEM_CONTENT_TYPE;
}

function completeOperation(method: string, operation: OperationObject): void {
  const facts: RouteFacts = operation[ROUTE_FACTS] ?? { readsCookie: false, optionalBody: false };
  delete operation[ROUTE_FACTS];
  const takesBody = BODY_METHODS.has(method);

  const extra = operation[EXTRA_REQUEST_MEDIA];
  delete operation[EXTRA_REQUEST_MEDIA];
  if (extra) {
    operation.requestBody ??= { required: true, content: {} };
    Object.assign(operation.requestBody.content, extra);
  }
  if (facts.optionalBody && operation.requestBody) operation.requestBody.required = false;
  if (facts.readsCookie && takesBody) {
    operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/CsrfToken' }];
  }
  const takesCredential = operation.security === undefined || operation.security.length > 0;
  if (takesCredential) {
    operation.parameters = [
      ...(operation.parameters ?? []),
      { $ref: '#/components/parameters/WorkspaceHeader' },
      { $ref: '#/components/parameters/WorkspaceQuery' },
    ];
  }

  const responses: Record<string, ResponseObject> = operation.responses ?? {};
  for (const [status, response] of Object.entries(responses)) {
    if (isStandardProblem(status, response)) {
      responses[status] = responseRef(Number(status) as ProblemStatusCode);
      continue;
    }
    fixHeaders(response);
    if (response.description === 'Default Response') response.description = STATUS_TEXT[status] ?? 'Success';
  }
  const added: ProblemStatusCode[] = [...UNIVERSAL];
  if (facts.readsCookie || takesCredential) added.push(403);
  if (takesCredential) added.push(404);
  if (takesBody) added.push(413, 415);
  for (const status of added) responses[status] ??= responseRef(status);
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Intake',
        version: '1.0.0',
        description:
          'Self-hostable form collection: forms, submissions, keys, webhooks. Errors are RFC 9457 problem details (`application/problem+json`).',
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: [
        { name: 'accounts', description: 'Sign-up, log-in and sessions' },
        { name: 'environments', description: "A user's environments (development, production, …)" },
        { name: 'keys', description: 'Secret and publishable API keys' },
        { name: 'forms', description: 'Forms and their definitions' },
        { name: 'submissions', description: 'Submitting to a form, and the owner’s inbox' },
        { name: 'webhooks', description: 'Webhooks and their deliveries' },
        { name: 'analytics', description: 'Views, starts and submissions' },
        { name: 'operations', description: 'Running the service' },
      ],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A session token, a secret key or a publishable key',
          },
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'A secret or publishable key',
          },
          publishableKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Publishable-Key',
            description: 'A publishable key (what browser integrations send)',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'intake_session',
            description:
              'The dashboard: log in with `cookie: true`; POST, PUT, PATCH and DELETE also need the `csrfToken` in `X-CSRF-Token`, and a cookie from another `Origin` is refused. In production mode (the default) the cookie is `__Host-intake_session` (Secure); `intake_session` only in development mode (NODE_ENV=development)',
          },
        },
        headers: structuredClone(RESPONSE_HEADERS),
        responses: problemComponents(),
        parameters: {
          CsrfToken: {
            name: 'X-CSRF-Token',
            in: 'header',
            required: false,
            description:
              'With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403',
            schema: { type: 'string' },
          },
          WorkspaceHeader: {
            name: 'X-Intake-Workspace',
            in: 'header',
            required: false,
            description:
              'The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only',
            schema: { type: 'string', pattern: '^wsp_[0-9a-z]{26}$' },
          },
          WorkspaceQuery: {
            name: 'workspace',
            in: 'query',
            required: false,
            description: 'The same as `X-Intake-Workspace`, for links; the header wins when both are sent',
            schema: { type: 'string' },
          },
        },
      },
    } as FastifyDynamicSwaggerOptions['openapi'],
    transform: ({ schema, url, route }) => {
      if (!schema || schema.hide) return { schema, url };
      const config = (route as RouteOptions).config ?? {};
      const onRequest = [route.onRequest ?? []].flat();
      const facts: RouteFacts = {
        readsCookie: config.public !== true && config.ignoreSessionCookie !== true,
        optionalBody: onRequest.includes(emptyBodyIsNone.onRequest),
      };
      return { schema: { ...schema, [ROUTE_FACTS]: facts }, url };
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const paths = (documentObject.openapiObject.paths ?? {}) as Record<string, PathItem>;
      for (const item of Object.values(paths)) {
        for (const method of METHODS) {
          const operation = item[method];
          if (operation) completeOperation(method, operation);
        }
      }
      return documentObject.openapiObject;
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  // In a scope of its own, so that its hook covers the reader's static files as well as its page.
  await app.register(async (docs) => {
    docs.addHook('onRequest', docsHeaders);
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      // no request to validator.swagger.io for its badge: the policy below would refuse it anyway
      uiConfig: { validatorUrl: null },
    });
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/**
 * The policy of `/docs`, which is served on the dashboard's origin: the reader's own scripts and
 * styles (files under /docs/static; no inline script), the document fetched from this origin,
 * nothing framed or framing it. A page there that another site could frame, or that ran a script
 * from elsewhere, would act with the dashboard's session cookie.
 */
const DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // The one <style> element Swagger UI's bundle writes (@fastify/swagger-ui 5.2): allowed by its
  // hash, not by 'unsafe-inline'. Another version writing another one fails test/browser/docs.test.ts.
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  // the logo is a data: URL written into swagger-initializer.js
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function docsHeaders(_request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply
    .header('content-security-policy', DOCS_POLICY)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
  done();
}
