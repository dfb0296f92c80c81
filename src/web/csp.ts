import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/**
 * The security headers of a page: a strict Content-Security-Policy (API.md §11.1: at least
 * `default-src 'self'; object-src 'none'`, no 'unsafe-eval', inline script only with a nonce)
 * and the usual companions. Each page sets them with `setPageHeaders`, so a page can widen
 * exactly what it needs: the hosted form its frame-ancestors (`ui.embedOrigins`), a CAPTCHA
 * its provider's origin.
 */
export interface PagePolicy {
  /** A nonce for the page's inline `<script>`s and `<style>`s, when it has some (`newNonce()`). */
  nonce?: string;
  /** `'sha256-…'` sources of the page's inline `<style>`s: what a page kept and sent many times carries instead of a nonce. */
  styleHashes?: readonly string[];
  /** Who may frame the page: origins, `'self'`, `*`; default `'none'` (no one). */
  frameAncestors?: readonly string[];
  /** Other origins the page loads scripts, frames and calls from (a CAPTCHA provider). */
  scriptOrigins?: readonly string[];
  frameOrigins?: readonly string[];
  connectOrigins?: readonly string[];
  styleOrigins?: readonly string[];
  /** Other origins the page's forms may post to or be redirected to after a post (a form's `ui.redirectUrl`). */
  formActionOrigins?: readonly string[];
}

/** A source a policy may name: a keyword, `*`, or a scheme and host (with an optional `*.` and port). */
const SOURCE = /^(?:'none'|'self'|\*|https?:\/\/(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?)$/;
/** Whether a policy may name this source (csp.ts refuses others): an origin such as `https://example.com:8443`. */
export const isCspSource = (value: string): boolean => SOURCE.test(value);
const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/** A fresh nonce for one response (128 random bits). */
export const newNonce = (): string => randomBytes(16).toString('base64');

export function contentSecurityPolicy(policy: PagePolicy = {}): string {
  const nonce = policy.nonce === undefined ? [] : [`'nonce-${checkedNonce(policy.nonce)}'`];
  const directives: Array<[string, readonly string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...nonce, ...sources(policy.scriptOrigins)]],
    ['style-src', ["'self'", ...nonce, ...hashes(policy.styleHashes), ...sources(policy.styleOrigins)]],
    ['img-src', ["'self'"]],
    ['connect-src', ["'self'", ...sources(policy.connectOrigins)]],
    // Frames: default-src's 'self' unless a page names more.
    ...(policy.frameOrigins?.length
      ? [['frame-src', ["'self'", ...sources(policy.frameOrigins)]] as [string, string[]]]
      : []),
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'", ...sources(policy.formActionOrigins)]],
    ['frame-ancestors', policy.frameAncestors?.length ? sources(policy.frameAncestors) : ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** Sets a page's Content-Security-Policy (`csp`: the policy's, made already) and the headers every page carries. */
export function setPageHeaders(
  reply: FastifyReply,
  policy: PagePolicy = {},
  csp = contentSecurityPolicy(policy),
): FastifyReply {
  reply.header('content-security-policy', csp);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  // For browsers that predate frame-ancestors; it cannot name origins, so only when no one may frame.
  if (!policy.frameAncestors?.length) reply.header('x-frame-options', 'DENY');
  return reply;
}

function sources(values: readonly string[] = []): string[] {
  for (const value of values) {
    if (!SOURCE.test(value)) throw new Error(`not a source a Content-Security-Policy may name: ${value}`);
  }
  return [...values];
}

/** The CSP source allowing exactly this inline code (its SHA-256). */
export const hashSource = (code: string): string =>
  `'sha256-${createHash('sha256').update(code).digest('base64')}'`;

const HASH = /^'sha256-[A-Za-z0-9+/]{43}='$/;

function hashes(values: readonly string[] = []): string[] {
  for (const value of values) {
    if (!HASH.test(value)) throw new Error(`not a CSP hash source: ${value}`);
  }
  return [...values];
}

function checkedNonce(nonce: string): string {
  if (!NONCE.test(nonce)) throw new Error('a CSP nonce is at least 16 base64 characters');
  return nonce;
}
