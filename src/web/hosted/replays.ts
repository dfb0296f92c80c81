import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredForm } from '../../features/forms/repo.js';
import type { FrontDoorAnswer } from '../../platform/http/front-door.js';
import { timeOrderedToken } from '../../platform/ids.js';
import { type KeptPage, pageBytes } from './kept-pages.js';

/**
 * The hosted form's first page answered again before Fastify routes the request (issue 24: the
 * most asked-for URL, by every reader of a shared link). The routed answer of `GET /f/{formId}`
 * to a plain request (no query, no cookie, no credential: what a link's reader sends) leaves
 * behind what it wrote: its headers as set, the kept page (kept-pages.ts) and whether it was
 * gzipped. The next request that would be answered the same way is answered from that, with a
 * session id, idempotency key and request id of its own and its view recorded as the route
 * records it: the routing, the hooks and the handler's checks, most of the page's cost, are
 * skipped, not the answer.
 *
 * "The same way" is decided by the request and by the form. The request: a GET of `/f/{id}`
 * exactly, whose headers are all ones that change nothing of the answer (`ANSWER_NEUTRAL`) or
 * that the replay is kept per (`KEYED`: the language and encoding asked for, the host). Any
 * other header (a cookie, an `Origin`, a credential, a body's) sends it to the route. The form:
 * the object the route answered from must still be the one the form cache holds
 * (`current`): a change, a deletion or the cache's second passing (forms/repo.ts) sends the
 * next request to the route, which reads the form again and leaves a new replay. A form with
 * response controls (API.md §15) never leaves one: its gates change with the clock and counts.
 * Nothing is replayed while request logging is on (LOG_LEVEL info or finer: the route logs
 * every request), nor once the service closes (front-door.ts); a replay under way then ends its
 * connection as the route's answers do (graceful-close.ts). A replay that fails after recording
 * its view is routed, and the route records one more: a view too many, never one too few.
 */

/** Request headers that change nothing of the page's answer. */
const ANSWER_NEUTRAL = new Set([
  'connection',
  'user-agent',
  'accept',
  'cache-control',
  'pragma',
  'upgrade-insecure-requests',
  'referer',
  'dnt',
  'sec-gpc',
  'priority',
  'sec-fetch-dest',
  'sec-fetch-mode',
  'sec-fetch-site',
  'sec-fetch-user',
  'sec-ch-ua',
  'sec-ch-ua-mobile',
  'sec-ch-ua-platform',
  // the client's address (the view's rate limit) is read from it as the route reads it
  'x-forwarded-for',
]);

/** Request headers a replay is kept per: what the answer may depend on. */
const KEYED = ['host', 'accept-encoding', 'accept-language', 'x-forwarded-host', 'x-forwarded-proto'];
const KEYED_SET = new Set(KEYED);

/** `/f/{formId}` and nothing more (a form id's characters: readable-id.ts). */
const PAGE_PATH = /^\/f\/([A-Za-z0-9_-]{1,200})$/;

/** Response headers each replay writes for itself. */
const OWN_HEADERS = new Set(['x-request-id', 'content-length', 'date', 'connection', 'keep-alive']);

interface Replay {
  form: StoredForm;
  page: KeptPage;
  gzip: boolean;
  /** The routed answer's headers, as name, value, name, value … (`writeHead`'s flat form). */
  headers: string[];
}

export interface ReplayDependencies {
  /** The form as the form cache holds it now, without reading the database. */
  current: (formId: string) => StoredForm | undefined;
  /** Records the page's view as the route does (rate-limited per address, stored in batches). */
  recordView: (form: StoredForm, sessionId: string, request: IncomingMessage) => Promise<void>;
  /** The request id the route would have given (edge.ts). */
  requestId: (request: IncomingMessage) => string;
  /** False while the route logs every request: the replay would log nothing. */
  enabled: boolean;
  /** True once the service closes: a replay under way then says `Connection: close`, as the route would. */
  closing: () => boolean;
  /** What the route does when a replay fails before writing: it answers (front-door.ts). */
  onError: (error: unknown) => void;
}

export class PageReplays {
  private readonly replays = new Map<string, Replay>();

  constructor(
    private readonly dependencies: ReplayDependencies,
    /**
     * Replays kept (forms × languages × encodings × hosts asked for), each holding its form and
     * page (a few kB to tens) until it is asked for again or pushed out: past it the oldest goes.
     */
    private readonly bound = 256,
  ) {}

  /** Replays held (tests). */
  get size(): number {
    return this.replays.size;
  }

  /**
   * The route's answer of the kept page to `request`, about to be sent: kept for the next
   * request answered the same way, when this one is of the kind a replay answers.
   */
  remember(
    request: FastifyRequest,
    reply: FastifyReply,
    form: StoredForm,
    page: KeptPage,
    gzip: boolean,
  ): void {
    if (!this.dependencies.enabled || form.definition.access) return;
    const key = replayKey(request.raw);
    if (key === undefined || key.formId !== form.id) return;
    const headers: string[] = [];
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined || OWN_HEADERS.has(name)) continue;
      // a cookie set is this request's own: nothing to replay
      if (name === 'set-cookie') return;
      headers.push(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    this.replays.delete(key.text);
    this.replays.set(key.text, { form, page, gzip, headers });
    if (this.replays.size > this.bound) this.replays.delete(this.replays.keys().next().value as string);
  }

  /** The front door's answer (front-door.ts): a replay when one answers this request. */
  readonly answer: FrontDoorAnswer = (request, response, route) => {
    if (!this.dependencies.enabled || request.method !== 'GET') return false;
    const key = replayKey(request);
    if (key === undefined) return false;
    const replay = this.replays.get(key.text);
    if (replay === undefined) return false;
    if (this.dependencies.current(key.formId) !== replay.form) {
      this.replays.delete(key.text);
      return false;
    }
    this.replay(request, response, replay).catch((error: unknown) => {
      this.dependencies.onError(error);
      if (!response.headersSent) route();
      else response.destroy();
    });
    return true;
  };

  private async replay(request: IncomingMessage, response: ServerResponse, replay: Replay): Promise<void> {
    // as the route: the session's view recorded before the page that carries its id is sent
    const sessionId = timeOrderedToken();
    await this.dependencies.recordView(replay.form, sessionId, request);
    const body = pageBytes(replay.page, { sessionId, idempotencyKey: timeOrderedToken() }, replay.gzip);
    const headers = [
      ...replay.headers,
      'x-request-id',
      this.dependencies.requestId(request),
      'content-length',
      String(body.length),
    ];
    // begun before the close (its view recorded meanwhile): the last answer on this connection
    if (this.dependencies.closing()) headers.push('connection', 'close');
    response.writeHead(200, headers);
    response.end(body);
  }
}

/** The replay a request may be answered by, or undefined when it is not of the kind replays answer. */
function replayKey(request: IncomingMessage): { formId: string; text: string } | undefined {
  const url = request.url;
  if (url === undefined || request.httpVersionMajor !== 1) return undefined;
  const formId = PAGE_PATH.exec(url)?.[1];
  if (formId === undefined) return undefined;
  const headers = request.headers;
  for (const name in headers) if (!ANSWER_NEUTRAL.has(name) && !KEYED_SET.has(name)) return undefined;
  let text = formId;
  for (const name of KEYED) text += `\u0000${headers[name] ?? ''}`;
  return { formId, text };
}
