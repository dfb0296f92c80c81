import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { SHIPPED_LANGUAGES, wordsFor } from '../shared/i18n/catalogues.js';
import { chooseLanguage } from '../shared/i18n/negotiate.js';
import { withLocalizedMessages } from '../shared/refusals.js';
import { isStorageUnavailable, logFailure, unavailableProblem } from './db/unavailable.js';
import { type ErrorCode, type FieldError, Problem } from './problem.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  for (const [name, value] of Object.entries(problem.options.headers ?? {})) reply.header(name, value);
  return reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem.body());
}

/**
 * API.md §13: a request with `Accept-Language` or `?lang=` gets each field error's message in
 * that language as well, as `localizedMessage` (the best match among Intake's catalogues;
 * English for a language it does not speak, and for a message it has no words of its own for).
 */
export function withLocalizedErrors(problem: Problem, request: FastifyRequest): Problem {
  const errors = problem.options.errors;
  if (!errors || errors.length === 0) return problem;
  const lang = (request.query as Record<string, unknown> | undefined)?.lang;
  const acceptLanguage = request.headers['accept-language'];
  if (typeof lang !== 'string' && !acceptLanguage) return problem;
  const words = wordsFor(chooseLanguage(SHIPPED_LANGUAGES, { lang, acceptLanguage }));
  return new Problem(problem.status, problem.code, problem.detail, {
    ...problem.options,
    errors: withLocalizedMessages(errors, words),
  });
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/fields/2/options` → `fields[2].options`: the name of a member as a client writes it. */
export function memberPath(pointer: string, extra?: string): string {
  const parts = pointer.split('/').slice(1);
  if (extra !== undefined) parts.push(extra);
  let out = '';
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

const FORMAT_WORDS: Record<string, string> = {
  email: 'must be an e-mail address like name@example.com',
  uri: 'must be a full web address, like https://example.com',
  url: 'must be a full web address, like https://example.com',
  'date-time': 'must be a date and time like 2026-03-31T09:30:00Z',
  date: 'must be a date like 2026-03-31',
  uuid: 'must be a UUID',
};
const TYPE_WORDS: Record<string, string> = {
  string: 'must be text',
  number: 'must be a number',
  integer: 'must be a whole number',
  boolean: 'must be true or false',
  array: 'must be a list',
  object: 'must be an object',
  null: 'must be null',
};
const count = (n: unknown, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;

/**
 * An Ajv error in plain words: Ajv's own ("must NOT have fewer than 8 characters", "must match
 * format \"email\"") reach people, the dashboard's sign-up among them, which shows a member's
 * message under its field. A predicate, as every `errors[].message` of the API is: it follows
 * the member's name. The `code` stays Ajv's keyword.
 */
export function plainAjvMessage({ keyword, params, message }: AjvError): string {
  const limit = params.limit;
  switch (keyword) {
    case 'minLength':
      return limit === 1
        ? 'must not be empty'
        : `must be at least ${count(limit, 'character', 'characters')} long`;
    case 'maxLength':
      return `must be at most ${count(limit, 'character', 'characters')} long`;
    case 'minimum':
      return `must be ${String(limit)} or more`;
    case 'maximum':
      return `must be ${String(limit)} or less`;
    case 'exclusiveMinimum':
      return `must be more than ${String(limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(limit)}`;
    case 'minItems':
      return `must list at least ${count(limit, 'item', 'items')}`;
    case 'maxItems':
      return `must list at most ${count(limit, 'item', 'items')}`;
    case 'multipleOf':
      return `must be a multiple of ${String(params.multipleOf)}`;
    case 'format':
      return FORMAT_WORDS[String(params.format)] ?? `must be written as ${String(params.format)}`;
    case 'type': {
      const types = String(params.type).split(',');
      return types.length === 1
        ? (TYPE_WORDS[types[0] ?? ''] ?? `must be ${String(params.type)}`)
        : `must be one of these types: ${types.join(', ')}`;
    }
    case 'enum': {
      const allowed = params.allowedValues;
      return Array.isArray(allowed) && allowed.length <= 12
        ? `must be one of: ${allowed.map((value) => JSON.stringify(value)).join(', ')}`
        : 'must be one of the values allowed';
    }
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'pattern':
      return 'is not in the form expected';
    case 'anyOf':
    case 'oneOf':
      return 'does not match any of the forms allowed';
    default:
      return message?.replace('must NOT', 'must not') ?? 'is invalid';
  }
}

/** Ajv errors as field errors: one per failing member, with the rule that failed. */
export function fieldErrorsFromAjv(errors: readonly AjvError[], prefix = ''): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  // a member that may be null (`anyOf: [X, null]`) failing X: "must be null" and "must match a
  // schema in anyOf" say nothing more than X's own error, which comes first. (Other unions keep
  // their summary: a union of literals is refused with `const`, then `anyOf`, as clients know it.)
  const nullable = new Set(
    errors
      .filter((error) => error.keyword === 'type' && error.params.type === 'null')
      .map((e) => e.instancePath),
  );
  const fieldsSeen = new Set<string>();
  /** Whether an error at `path` or below it is listed already. */
  const saidAtOrBelow = (path: string) =>
    [...fieldsSeen].some((seen) => seen === path || seen.startsWith(`${path}/`));
  // a union of literals fails each one: its `const` line names them all
  const choices = new Map<string, unknown[]>();
  for (const error of errors) {
    if (error.keyword === 'const')
      choices.set(error.instancePath, [
        ...(choices.get(error.instancePath) ?? []),
        error.params.allowedValue,
      ]);
  }
  for (const error of errors) {
    if (nullable.has(error.instancePath)) {
      if (error.keyword === 'type' && error.params.type === 'null') continue;
      const isSummary = error.keyword === 'anyOf' || error.keyword === 'oneOf';
      if (isSummary && saidAtOrBelow(error.instancePath)) continue;
    }
    let extra: string | undefined;
    let code = error.keyword;
    let message = plainAjvMessage(error);
    const allowed = error.keyword === 'const' ? (choices.get(error.instancePath) ?? []) : [];
    if (allowed.length > 1)
      message = `must be one of: ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
    if (error.keyword === 'required') {
      extra = String(error.params.missingProperty);
      code = 'required';
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      extra = String(error.params.additionalProperty);
      code = 'unknown_member';
      message = 'is not a known member';
    }
    const path = memberPath(error.instancePath, extra);
    const field = prefix && path ? `${prefix}.${path}` : prefix || path || '(body)';
    const key = `${field}\u0000${code}`;
    // anyOf/oneOf failures repeat themselves once per branch; one line per field is enough
    if (seen.has(key)) continue;
    seen.add(key);
    fieldsSeen.add(extra === undefined ? error.instancePath : `${error.instancePath}/${extra}`);
    out.push({ field, code, message });
  }
  return out;
}

const PART_NAMES: Record<string, string> = {
  body: 'request body',
  querystring: 'query string',
  params: 'path',
  headers: 'headers',
};

/** Maps every error, ours or Fastify's, to a problem document. */
export function toProblem(error: FastifyError & { validationContext?: string }): Problem | undefined {
  if (error instanceof Problem) return error;
  // A client's own fault (an upload it aborted is an ECONNRESET with status 400) is not an outage.
  const clientFault = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500;
  if (!clientFault && isStorageUnavailable(error)) return unavailableProblem(error);
  if (error.validation) {
    const part = error.validationContext ?? 'body';
    const errors = fieldErrorsFromAjv(error.validation as AjvError[]);
    const code: ErrorCode =
      part === 'querystring' || part === 'params' ? 'invalid_parameter' : 'validation_failed';
    return new Problem(400, code, `The ${PART_NAMES[part] ?? part} is invalid: ${describe(errors)}`, {
      errors,
    });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new Problem(400, 'invalid_json', `The body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new Problem(413, 'payload_too_large', 'The body is larger than the limit of 1 MiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new Problem(
        415,
        'unsupported_media_type',
        'Send the body as application/json (Content-Type: application/json)',
      );
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new Problem(
        400,
        'invalid_parameter',
        'The path is invalid: a part of it is malformed or too long',
        {
          errors: [{ field: '(path)', code: 'format', message: 'is malformed or too long' }],
        },
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new Problem(400, 'invalid_parameter', 'Content-Length does not match the body');
  }
  // secure-json-parse refuses __proto__ and constructor.prototype keys with a SyntaxError.
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new Problem(400, 'invalid_json', `The body is not valid JSON: ${error.message}`);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const code: ErrorCode =
      error.statusCode === 404
        ? 'not_found'
        : error.statusCode === 429
          ? 'rate_limited'
          : 'invalid_parameter';
    return new Problem(error.statusCode, code, error.message);
  }
  return undefined;
}

function describe(errors: FieldError[]): string {
  const shown = errors.slice(0, 3).map((e) => `${e.field} ${e.message}`);
  return shown.join('; ') + (errors.length > 3 ? `; and ${errors.length - 3} more` : '');
}

/**
 * The problem an error is answered with, logged as its kind deserves: shared by the API's error
 * handler (below) and the web pages' (src/web), which show the same problem as a page.
 */
export function problemFor(
  error: FastifyError,
  request: FastifyRequest,
  options: { production: boolean },
): Problem {
  const problem = toProblem(error);
  if (problem) {
    // An outage answers many requests alike: one warning each, not an error with its stack.
    if (problem.code === 'service_unavailable') logFailure(request.log, error, 'storage unavailable');
    else if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    // In development a client error's stack helps whoever is writing the client.
    else if (!options.production) request.log.debug({ err: error }, 'client error');
    return problem;
  }
  request.log.error({ err: error }, 'unexpected error');
  return new Problem(
    500,
    'internal',
    `An unexpected error occurred; quote request id ${request.id} when reporting it`,
  );
}

/**
 * Installs the error handler and the 404/405 handler. A router of its own, fed by
 * `onRoute`, tells "no such path" (404) from "no such method on this path" (405).
 */
export function installErrorHandling(app: FastifyInstance, options: { production: boolean }): void {
  // Same matching as Fastify's own router (no trailing-slash folding), so a 405 is never a 404 in disguise.
  const routes = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' && routes.hasRoute('HEAD', route.url)) continue;
      try {
        routes.on(method as HTTPMethod, route.url, () => {});
      } catch {
        // the same path registered twice under another prefix: already known
      }
    }
  });

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    sendProblem(reply, withLocalizedErrors(problemFor(error, request, options), request)),
  );

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter(
      (method) => routes.find(method, path) !== null,
    );
    if (allowed.length > 0) {
      reply.header('allow', [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', '));
      return sendProblem(
        reply,
        new Problem(
          405,
          'method_not_allowed',
          `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
        ),
      );
    }
    return sendProblem(reply, new Problem(404, 'not_found', `No route ${request.method} ${path}`));
  });
}
