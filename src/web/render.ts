import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { type PagePolicy, setPageHeaders } from './csp.js';

export interface PageOptions {
  status?: number;
  /** The page's CSP (csp.ts); the strict default when omitted. */
  policy?: PagePolicy;
  /** `no-cache` (the default: stored, revalidated) or `no-store` (pages that must never be kept). */
  cache?: 'no-cache' | 'no-store';
}

/** A whole document (`<Layout>`) as HTML. */
export const renderDocument = (page: VNode): string => `<!doctype html>${renderToString(page)}`;

/** Answers with a server-rendered page and its security headers. */
export function sendPage(reply: FastifyReply, page: VNode, options: PageOptions = {}): FastifyReply {
  return setPageHeaders(reply, options.policy)
    .status(options.status ?? 200)
    .header('cache-control', options.cache ?? 'no-cache')
    .type('text/html; charset=utf-8')
    .send(renderDocument(page));
}
