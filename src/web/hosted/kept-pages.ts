import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { acceptsGzip, SplicedBody } from '../../platform/http/spliced-body.js';
import { appendVary } from '../../platform/http/vary.js';
import { contentSecurityPolicy, type PagePolicy, setPageHeaders } from '../csp.js';

/**
 * The hosted form's first page as anyone gets it (no answers yet, not the owner's preview):
 * rendered once per form version, language and frame, then sent from memory (issue 24: the most
 * asked-for URL, by every reader of a shared link). What each response has of its own, its
 * session id and idempotency key, is spliced into the kept bytes (`SplicedBody`), gzip included;
 * the page's policy allows its inline style by hash, not by a per-response nonce (document.tsx).
 *
 * No ETag and no 304: each load must carry an idempotency key of its own (a page kept by the
 * browser and revalidated would post the last load's again, and the second answer would be taken
 * for a replay of the first); pages stay `no-store` (form-pages.tsx).
 */

/** Where a page's session id and idempotency key go, as rendered (random: no form can hold them). */
export const HOLES = {
  sessionId: `sid${randomBytes(12).toString('hex')}`,
  idempotencyKey: `key${randomBytes(12).toString('hex')}`,
} as const;
const MARKERS = [HOLES.sessionId, HOLES.idempotencyKey];

export interface KeptPage {
  body: SplicedBody;
  /** For each hole in order, which of MARKERS it is. */
  holes: number[];
  policy: PagePolicy;
  /** The policy's header, made once. */
  csp: string;
}

/** What a response puts in the holes. */
export interface PageValues {
  sessionId: string;
  idempotencyKey: string;
}

/**
 * Pages kept per key; past `bound` (forms × languages × framed or not) the oldest goes first.
 * A form's new version is a new key: the old one ages out.
 */
export class KeptPages {
  private readonly kept = new Map<string, KeptPage | null>();

  constructor(private readonly bound = 256) {}

  /**
   * Sends the page kept as `key`, rendered by `render` (with HOLES for its values) when it is not
   * yet; a page whose holes are not both there once at least (an unforeseen render) is sent as
   * rendered each time, with the values put in by hand.
   */
  send(
    reply: FastifyReply,
    key: string,
    render: () => { html: string; policy: PagePolicy },
    values: PageValues,
    /** Told of the kept page a response is about to carry, its headers set (replays.ts). */
    sending?: (page: KeptPage, gzip: boolean) => void,
  ): FastifyReply {
    let page = this.kept.get(key);
    if (page === undefined) {
      page = this.make(render);
      if (this.kept.size >= this.bound) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(key, page);
    }
    if (page === null) {
      const { html, policy } = render();
      return setPageHeaders(reply, policy)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          html
            .replaceAll(HOLES.sessionId, () => values.sessionId)
            .replaceAll(HOLES.idempotencyKey, () => values.idempotencyKey),
        );
    }
    setPageHeaders(reply, page.policy, page.csp)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8');
    appendVary(reply, 'Accept-Encoding');
    const gzip = acceptsGzip(reply.request.headers['accept-encoding']);
    if (gzip) reply.header('content-encoding', 'gzip');
    sending?.(page, gzip);
    return reply.send(pageBytes(page, values, gzip));
  }

  private make(render: () => { html: string; policy: PagePolicy }): KeptPage | null {
    const { html, policy } = render();
    const cut = SplicedBody.cut(html, MARKERS);
    if (!cut) return null;
    return { body: cut.body, holes: cut.holes, policy, csp: contentSecurityPolicy(policy) };
  }
}

/** A kept page's bytes with a response's values in its holes, gzipped or as is. */
export function pageBytes(page: KeptPage, values: PageValues, gzip: boolean): Buffer {
  const given = [values.sessionId, values.idempotencyKey];
  const filled = page.holes.map((hole) => given[hole] as string);
  return gzip ? page.body.gzip(filled) : page.body.identity(filled);
}
