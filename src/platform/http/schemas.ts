import { type TNull, type TSchema, Type } from '@sinclair/typebox';
import { PROBLEM_CONTENT_TYPE } from '../errors.js';
import { ERROR_CODES, type ErrorCode } from '../problem.js';

/** Schemas shared by every feature's routes, and the helpers that describe answers in the OpenAPI document. */

/**
 * Request media types a route takes besides the JSON of its `body` schema, for the document only
 * (the submit route's HTML form posts, which a hook of their own turns into the JSON shape).
 */
export const EXTRA_REQUEST_MEDIA = 'x-intake-request-media';

declare module 'fastify' {
  interface FastifySchema {
    [EXTRA_REQUEST_MEDIA]?: Record<string, { schema: unknown }>;
  }
}

/** A string enum: one error ("must be equal to one of the allowed values") rather than one per value. */
export const StringEnum = <T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });

export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T10:02:06.123Z'] });

/** One failing member (shared/form.ts `FieldError`, held equal by features/forms/schemas.types.test.ts). */
export const FieldErrorSchema = Type.Object({
  field: Type.String(),
  code: Type.String(),
  message: Type.String(),
  localizedMessage: Type.Optional(
    Type.String({
      description: 'The message in the language of the request’s Accept-Language or ?lang= (API.md §13)',
    }),
  ),
});

/** The one error document of the API (problem.ts), `components/schemas/Problem` in the OpenAPI document. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri', examples: ['https://intake.dev/problems/validation-failed'] }),
    title: Type.String(),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    detail: Type.String(),
    code: StringEnum(Object.keys(ERROR_CODES) as ErrorCode[], {
      description: 'Stable snake_case identifier of the error (API.md §10)',
    }),
    errors: Type.Optional(
      Type.Array(FieldErrorSchema, {
        description: 'Every failing member, for validation failures',
      }),
    ),
    suggestions: Type.Optional(
      Type.Array(Type.String(), {
        description: 'invalid_environment: environment names to use instead (development, production)',
      }),
    ),
    forms: Type.Optional(
      Type.Integer({ minimum: 0, description: 'environment_not_empty: the forms it still holds' }),
    ),
    keys: Type.Optional(
      Type.Integer({ minimum: 0, description: 'environment_not_empty: the API keys it still holds' }),
    ),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details' },
);

export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const EnvironmentQuery = Type.String({
  description: 'Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production',
});

/** An HTML page (the answers of plain HTML form posts). */
export const HtmlPage = Type.String({ description: 'An HTML page' });

const integerHeader = (description: string) => ({
  description,
  required: true,
  schema: { type: 'integer', minimum: 0 },
});

/**
 * The response headers the API sends, `components/headers` in the document. `required`: sent
 * on every answer that declares the header. Routes name them with `withHeaders`/`respond`.
 */
export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description:
      'The id of this request (the X-Request-Id sent when it is a UUID, else a new UUID): quote it when reporting a problem',
    required: true,
    schema: { type: 'string' },
  },
  ETag: {
    description:
      'The form version in quotes (`"3"`; the owner\'s view of a form whose working copy waits: `"3-draft"`; the public view in another of its languages: `"3-de"`): send it back in If-None-Match or If-Match',
    required: true,
    schema: { type: 'string', pattern: '^"[0-9]+(-draft|-[A-Za-z0-9-]{1,100})?"$' },
  },
  Location: {
    description: 'Where the resource created (or the page to go to) is',
    required: true,
    schema: { type: 'string', format: 'uri-reference' },
  },
  'Retry-After': integerHeader('Seconds to wait before trying again'),
  'RateLimit-Limit': integerHeader('How many requests the current window allows'),
  'RateLimit-Remaining': integerHeader('How many of them are left'),
  'RateLimit-Reset': integerHeader('Seconds until the window starts again'),
  Deprecation: {
    description: 'This path is deprecated: use its successor, named in Link',
    required: true,
    schema: { type: 'string', enum: ['true'] },
  },
  Link: {
    description: 'The successor of this deprecated path: `<url>; rel="successor-version"`',
    required: true,
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description: 'The credential expected: `Bearer`',
    required: true,
    schema: { type: 'string' },
  },
  'Set-Cookie': {
    description:
      'The dashboard session cookie (`intake_session`, HttpOnly, SameSite=Lax; `__Host-intake_session`, Secure, in production): set by sign-up and log-in with `cookie: true`, cleared by log-out and when the cookie sent is no longer valid',
    required: false,
    schema: { type: 'string' },
  },
  'Content-Disposition': {
    description:
      "With format=csv, xlsx or ndjson: `attachment`, the file named after the form's title and the day, with the format's extension",
    required: false,
    schema: { type: 'string' },
  },
} satisfies Record<string, { description: string; required: boolean; schema: Record<string, unknown> }>;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** Where a response header is defined; openapi.ts turns these placeholders into header references. */
export const HEADER_REF_PREFIX = '#/components/headers/';

type HeaderRefs = Record<string, { $ref: string }>;

function headerRefs(names: readonly ResponseHeader[]): HeaderRefs | undefined {
  if (names.length === 0) return undefined;
  return Object.fromEntries(names.map((name) => [name, { $ref: `${HEADER_REF_PREFIX}${name}` }]));
}

/**
 * An answer described for the document and for the serializer alike: its description, the
 * headers it carries and its body, per media type (Fastify picks the serializer by the
 * reply's Content-Type; @fastify/swagger copies `content` as it is).
 */
export function respond<C extends Record<string, TSchema>>(
  description: string,
  content: C,
  headers: readonly ResponseHeader[] = [],
): { description: string; headers?: HeaderRefs; content: { [M in keyof C]: { schema: C[M] } } } {
  const media = Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }]));
  return {
    description,
    ...(headers.length > 0 ? { headers: headerRefs(headers) } : {}),
    content: media as { [M in keyof C]: { schema: C[M] } },
  };
}

/** A JSON answer with response headers (`withHeaders(FormOut, ['ETag'])`). */
export function withHeaders<T extends TSchema>(
  schema: T,
  headers: readonly ResponseHeader[],
  description = schema.description ?? 'Success',
) {
  return respond(description, { 'application/json': schema }, headers);
}

/** An answer without a body (204, 202 beacons, 303, 304), with the headers it carries. */
export function noBody(description: string, headers: readonly ResponseHeader[] = []): TNull {
  const refs = headerRefs(headers);
  return Type.Null({ description, ...(refs ? { headers: refs } : {}) });
}

interface ProblemStatus {
  /** The name of the shared response in `components/responses`. */
  name: string;
  description: string;
  headers?: readonly ResponseHeader[];
}

/** Every status a problem document is answered with, described once. */
export const PROBLEM_STATUSES = {
  400: {
    name: 'BadRequest',
    description:
      'The request is invalid: malformed JSON (invalid_json), a path or query parameter (invalid_parameter, invalid_environment) or a body (validation_failed, invalid_form…) that breaks the rules; `errors` lists every failing member',
  },
  401: {
    name: 'Unauthorized',
    description:
      'A credential is needed and none was sent, or the one sent is not valid (unknown, revoked, expired): never treated as anonymous',
    headers: ['WWW-Authenticate', 'Set-Cookie'],
  },
  403: {
    name: 'Forbidden',
    description:
      'The credential may not do this (another user’s resource, a key of another environment, a publishable key), or a session cookie without its X-CSRF-Token or from another origin',
  },
  404: { name: 'NotFound', description: 'No such resource (or not one the caller may know of)' },
  409: { name: 'Conflict', description: 'The request conflicts with the current state' },
  412: {
    name: 'PreconditionFailed',
    description: 'If-Match names a version that is no longer current (version_conflict)',
  },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than 1 MiB (payload_too_large)' },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not in a media type the operation takes (unsupported_media_type)',
  },
  429: {
    name: 'TooManyRequests',
    description: 'A rate limit (rate_limited) or the monthly quota (quota_exceeded) is used up',
    headers: ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
  },
  500: { name: 'InternalError', description: 'An unexpected error (internal); quote X-Request-Id' },
  502: { name: 'BadGateway', description: 'The mail transport refused the message (mail_failed)' },
  503: {
    name: 'ServiceUnavailable',
    description:
      'The storage cannot serve the request now (service_unavailable): retry after Retry-After seconds (with the same Idempotency-Key, if one was sent)',
    headers: ['Retry-After'],
  },
} as const satisfies Record<number, ProblemStatus>;

export type ProblemStatusCode = keyof typeof PROBLEM_STATUSES;

const problemRef = Type.Ref('Problem');

/** The error answer of one status: a problem document (and, with `html`, its HTML page). */
export function problemResponse(status: ProblemStatusCode, options: { html?: boolean } = {}) {
  const spec: ProblemStatus = PROBLEM_STATUSES[status];
  const content: Record<string, TSchema> = { [PROBLEM_CONTENT_TYPE]: problemRef };
  if (options.html) content['text/html'] = HtmlPage;
  return respond(spec.description, content, spec.headers ?? []);
}

/**
 * The error answers a route gives besides those every operation may give (openapi.ts adds
 * those: 400, 401, 500, 503; 403 where the session cookie is read; 413 and 415 where a body is).
 */
export function problems(...statuses: ProblemStatusCode[]) {
  return Object.fromEntries(statuses.map((status) => [status, problemResponse(status)])) as Record<
    ProblemStatusCode,
    ReturnType<typeof problemResponse>
  >;
}

/** Like `problems`, for a route that answers HTML form posts with HTML pages (form-posts.ts). */
export function problemsOrPages(...statuses: ProblemStatusCode[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, problemResponse(status, { html: true })]),
  ) as Record<ProblemStatusCode, ReturnType<typeof problemResponse>>;
}

type Security = Array<Record<string, string[]>>;

/**
 * The credentials each operation takes (API.md §1), for the document's per-operation
 * `security`. A credential sent where none is needed is still checked (401 when not valid).
 */
export const SECURITY = {
  /** Takes no credential: sign-up, log-in, health. */
  none: [] as Security,
  /** Public routes (any origin): anonymous, or a key; the session cookie is not read there. */
  public: [{ bearer: [] }, { apiKey: [] }, { publishableKey: [] }, {}] as Security,
  /** Anyone; the answer depends on who asks. */
  optional: [{ bearer: [] }, { apiKey: [] }, { publishableKey: [] }, { sessionCookie: [] }, {}] as Security,
  /** A session (bearer token or the dashboard cookie) or a secret key. */
  sessionOrSecretKey: [{ bearer: [] }, { apiKey: [] }, { sessionCookie: [] }] as Security,
  /** A session only (bearer token or the dashboard cookie): environments and keys. */
  session: [{ bearer: [] }, { sessionCookie: [] }] as Security,
};
