import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toProblem } from '../../platform/errors.js';
import { screenValue } from '../../platform/http/input-guard.js';
import { badRequest, type FieldError, type Problem } from '../../platform/problem.js';
import type { StoredForm } from '../forms/repo.js';
import type { Field } from '../forms/schemas.js';
import { type Fields, type FileTaker, formFields, readMultipartPost } from './post-body.js';

/**
 * Plain HTML `<form>` posts to `POST /forms/{id}/submit` (API.md §6.1):
 * `application/x-www-form-urlencoded` and `multipart/form-data` (fields only). Each form
 * field is an answer, repeated names (or `name[]`) make arrays, number and rating fields
 * are parsed as numbers, checkbox fields as booleans. A few names are controls rather
 * than answers (unless the form has a field of that id): `_redirect`, `_session`, and the
 * CAPTCHA token as `_captcha` or the providers' own `cf-turnstile-response`,
 * `h-captcha-response`, `g-recaptcha-response`.
 *
 * The answer is what a browser needs: 303 to `_redirect` or `ui.redirectUrl`, else a small
 * HTML thank-you page; errors are HTML pages too (`FormPostPages`, drawn by web/form-post-pages.tsx). A client that asks for JSON (`Accept`
 * preferring `application/json`) gets the JSON result and problem documents instead.
 */

interface PostState {
  fields: Fields;
  /** Set once the handler has the form, for the labels of an error page. */
  form?: StoredForm;
}

const posts = new WeakMap<FastifyRequest, PostState>();

/**
 * The HTML pages a form post is answered with, as whole documents. The pages are drawn in
 * web/ (form-post-pages.tsx), a layer above this feature: app.ts hands them over at registration.
 */
export interface FormPostPages {
  thankYou(form: StoredForm): string;
  /** A refusal (a problem below 500): its status's page, the failing answers under their labels when the form is known. */
  refused(problem: Problem, form: StoredForm | undefined): string;
}

const URLENCODED = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
const HTML = 'text/html; charset=utf-8';
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};
const CAPTCHA_NAMES = ['_captcha', 'cf-turnstile-response', 'h-captcha-response', 'g-recaptcha-response'];

/** A form post's CAPTCHA token: `_captcha` first, then the providers' own names (a widget's). */
export function captchaTokenOf(fields: Readonly<Record<string, unknown>>): string | undefined {
  for (const name of CAPTCHA_NAMES) {
    const value = fields[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first !== '' && first.length <= 10_000) return first;
  }
  return undefined;
}
/** Control names and the longest value each takes. */
const CONTROL_LIMITS = new Map<string, number>([
  ['_redirect', 2000],
  ['_session', 200],
  ...CAPTCHA_NAMES.map((name) => [name, 10_000] as [string, number]),
]);

const CONTROL_DESCRIPTIONS: Record<string, string> = {
  _redirect: 'Where to send the browser once stored: a page on the origin of the form’s ui.redirectUrl',
  _session: 'The session id (sessionId of a JSON submission)',
  _captcha: 'The CAPTCHA token (captchaToken of a JSON submission)',
};

/** A form post's fields, for the OpenAPI document: the answers by field id, and the controls. */
const FormPostFields = {
  type: 'object',
  description:
    'Each form field is an answer named by its field id (repeated names, or `name[]`, make arrays; number and rating fields are parsed as numbers, checkboxes as booleans), besides the controls below. Files are refused.',
  properties: Object.fromEntries(
    [...CONTROL_LIMITS].map(([name, maxLength]) => [
      name,
      {
        type: 'string',
        maxLength,
        description:
          CONTROL_DESCRIPTIONS[name] ?? 'The CAPTCHA token, under the name its provider’s widget gives it',
      },
    ]),
  ),
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
};

/** The request media types of form posts, documented beside the JSON body of the submit route. */
export const FORM_POST_MEDIA = {
  [URLENCODED]: { schema: FormPostFields },
  [MULTIPART]: { schema: FormPostFields },
};

/** The request body's media type, lower case, without parameters ('' when none is given). */
export const bodyMediaType = (request: FastifyRequest): string =>
  (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** A JSON body: `application/json` or any `+json` type. */
export const isJsonBody = (request: FastifyRequest): boolean => {
  const type = bodyMediaType(request);
  return type === 'application/json' || type.endsWith('+json');
};

function formPostKind(request: FastifyRequest): 'urlencoded' | 'multipart' | undefined {
  const type = bodyMediaType(request);
  return type === URLENCODED ? 'urlencoded' : type === MULTIPART ? 'multipart' : undefined;
}

/** True when the client prefers JSON to HTML (`Accept`, with q-values); browsers never do. */
export function prefersJson(accept: string | undefined): boolean {
  if (!accept) return false;
  let json = 0;
  let html = 0;
  for (const item of accept.split(',')) {
    const [type = '', ...parameters] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (type === 'application/json' || type === 'application/problem+json') json = Math.max(json, quality);
    else if (type === 'text/html' || type === 'application/xhtml+xml') html = Math.max(html, quality);
  }
  return json > html;
}

/**
 * A post whose client asks for JSON: answered with the JSON submit's bodies and problem
 * documents, not pages (API.md §12), wherever a form is posted (web/hosted's pages too).
 */
export const asksForJson = (request: FastifyRequest): boolean =>
  request.method === 'POST' && prefersJson(request.headers.accept);

/**
 * Installs form posts on `scope`, which must hold the submit route alone: the two parsers,
 * the hook that turns the fields into `{answers}` for the route's schema, and HTML error
 * pages. Every other route keeps answering 415 to these content types.
 */
export async function acceptFormPosts(
  scope: FastifyInstance,
  pages: FormPostPages,
  files?: { take: FileTaker; maxBytes: number },
): Promise<void> {
  const limit = scope.initialConfig.bodyLimit ?? 1024 * 1024;
  await scope.register(formbody, { bodyLimit: limit });
  await scope.register(multipart, {
    limits: { fieldSize: limit, fields: 1000, parts: 1000, fileSize: files?.maxBytes ?? limit },
  });

  scope.addHook('preValidation', async (request) => {
    const kind = formPostKind(request);
    if (kind === undefined) return;
    let fields: Fields;
    if (kind === 'multipart') {
      fields = await readMultipartPost(request, limit, files?.take, files?.maxBytes);
    } else {
      fields = formFields(request.body);
    }
    // the platform's input guard ran before the multipart fields were read
    const finding = screenValue(fields);
    if (finding) {
      throw badRequest('validation_failed', `The body is invalid: ${finding.field} ${finding.message}`, {
        errors: [finding],
      });
    }
    posts.set(request, { fields });
    request.body = { answers: fields };
  });

  scope.setErrorHandler((error: FastifyError, request, reply) => {
    if (!formPostKind(request) || prefersJson(request.headers.accept)) throw error;
    const problem = toProblem(error);
    // unexpected failures go to the platform's handler (logged, problem+json)
    if (!problem || problem.status >= 500) throw error;
    for (const [name, value] of Object.entries(problem.options.headers ?? {})) reply.header(name, value);
    return reply
      .status(problem.status)
      .type(HTML)
      .headers(PAGE_HEADERS)
      .send(pages.refused(problem, posts.get(request)?.form));
  });
}

export interface FormPost {
  /** The body as the JSON route takes it. */
  body: { answers: Fields; sessionId?: string; captchaToken?: string };
  /** Answers a stored (or replayed) submission the way the client wants. */
  respond(reply: FastifyReply, result: object): FastifyReply;
}

/**
 * The form post of this request read against its form, or undefined for a JSON request.
 * Throws 400 for a `_redirect` that may not be followed (before anything is stored).
 */
export function formPost(
  request: FastifyRequest,
  form: StoredForm,
  pages: FormPostPages,
): FormPost | undefined {
  const state = posts.get(request);
  if (!state) return undefined;
  state.form = form;

  const byId = new Map(form.definition.fields.map((field) => [field.id, field]));
  const answers: Fields = Object.create(null);
  const controls = new Map<string, string>();
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(state.fields)) {
    const field = byId.get(name);
    if (field) {
      answers[name] = parseAnswer(field, value);
      continue;
    }
    const limit = CONTROL_LIMITS.get(name);
    if (limit === undefined) {
      answers[name] = value; // the honeypot, or an unknown field the validator names
      continue;
    }
    const text = firstText(value);
    if (text !== undefined && text.length > limit) {
      errors.push({ field: name, code: 'max_length', message: `must be at most ${limit} characters long` });
    } else if (text) {
      controls.set(name, text);
    }
  }
  if (errors.length > 0) {
    throw badRequest('validation_failed', `The form post is invalid: ${errors[0]?.field} is too long`, {
      errors,
    });
  }

  const json = prefersJson(request.headers.accept);
  const redirect = redirectTarget(form, controls.get('_redirect'), {
    origin: firstHeader(request.headers.origin),
    referer: firstHeader(request.headers.referer),
  });
  const sessionId = controls.get('_session');
  // `_captcha` first, then the providers' own names
  const captchaToken = CAPTCHA_NAMES.map((name) => controls.get(name)).find((token) => token !== undefined);
  return {
    body: {
      answers,
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(captchaToken !== undefined ? { captchaToken } : {}),
    },
    respond(reply, result) {
      if (json) return reply.status(201).send(result);
      if (redirect) return reply.redirect(redirect.href, 303);
      return reply.status(201).type(HTML).headers(PAGE_HEADERS).send(pages.thankYou(form));
    },
  };
}

/** A posted control's text: the first when the name came several times, nothing when it is not text. */
export const firstText = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
};

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TRUE = new Set(['on', 'true', '1', 'yes']);
const FALSE = new Set(['off', 'false', '0', 'no']);

/**
 * Form fields are text: numbers and ratings become numbers, checkboxes booleans (the last
 * value wins, as with a hidden "0" before the box), a multiple select always an array.
 * Text that does not parse is left as it is, for the validator to name.
 */
export function parseAnswer(field: Field, value: unknown): unknown {
  switch (field.type) {
    case 'number':
    case 'rating': {
      const text = typeof value === 'string' ? value.trim() : undefined;
      return text !== undefined && DECIMAL.test(text) ? Number(text) : value;
    }
    case 'checkbox': {
      const last = Array.isArray(value) ? value.at(-1) : value;
      if (typeof last !== 'string') return value;
      const text = last.trim().toLowerCase();
      return TRUE.has(text) ? true : FALSE.has(text) ? false : last;
    }
    case 'select':
      if (!field.multiple) return value;
      return (Array.isArray(value) ? value : [value]).filter((item) => item !== '');
    case 'file':
      // upload ids: those the post's own files became, and those a page carried as hidden inputs
      return (Array.isArray(value) ? value : [value]).filter((item) => item !== '');
    default:
      return value;
  }
}

/**
 * A hosted page's post read against its form's fields (web/hosted): numbers, booleans and lists
 * parsed as `parseAnswer` does; every other name (controls, the honeypot) left out.
 */
export function answersOf(form: StoredForm, fields: Readonly<Fields>): Fields {
  const answers: Fields = Object.create(null);
  for (const field of form.definition.fields) {
    if (Object.hasOwn(fields, field.id)) answers[field.id] = parseAnswer(field, fields[field.id]);
  }
  return answers;
}

/**
 * Where to send the browser: `_redirect` or else `ui.redirectUrl` (API.md §6.1). Only http(s),
 * and a `_redirect` only to a site that is the form owner's: the origin of the form's own
 * `ui.redirectUrl`, or the origin of the page the form was posted from (the browser's `Origin`,
 * else its `Referer`). A plain HTML form with a hidden `_redirect` to its own site's thank-you
 * page works without setting anything; the service never sends a visitor anywhere else, so it is
 * no open redirect (a page elsewhere may only send its own visitors back to itself). A relative
 * `_redirect` is resolved against `ui.redirectUrl`, else against the posting page's origin.
 */
export function redirectTarget(
  form: StoredForm,
  requested: string | undefined,
  postedFrom?: { origin?: string; referer?: string },
): URL | undefined {
  const configured = form.definition.ui.redirectUrl;
  const base = configured ? httpUrl(configured) : undefined;
  if (requested === undefined || requested === '') return base;
  const refuse = (message: string) =>
    badRequest('validation_failed', `_redirect ${message}`, {
      errors: [{ field: '_redirect', code: 'redirect_not_allowed', message }],
    });
  const site = postingSite(postedFrom);
  if (!base && !site) {
    throw refuse(
      'is not accepted here: it may lead to the site the form was posted from (this post said none), or to the origin of the form’s ui.redirectUrl (it has none)',
    );
  }
  const url = httpUrl(requested, base ?? site);
  if (!url) throw refuse('must be an http or https URL');
  if (url.origin !== base?.origin && url.origin !== site?.origin) {
    const allowed = [site?.origin, base?.origin].filter((origin) => origin !== undefined).join(' or ');
    throw refuse(
      `must lead to ${allowed}: the site the form was posted from, or the origin of ui.redirectUrl`,
    );
  }
  return url;
}

/** The origin of the page a browser posted from: `Origin` (not "null"), else `Referer`'s. */
function postingSite(postedFrom: { origin?: string; referer?: string } | undefined): URL | undefined {
  const origin = postedFrom?.origin;
  if (origin !== undefined && origin !== 'null') return httpUrl(origin);
  return postedFrom?.referer ? httpUrl(postedFrom.referer) : undefined;
}

const firstHeader = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

function httpUrl(text: string, base?: URL): URL | undefined {
  try {
    const url = new URL(text, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
