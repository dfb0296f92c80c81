import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ENTRIES, type WebAssets } from './assets.js';

/**
 * `GET /embed.js` (API.md §11.2): the embedding script (client/embed/embed.ts), at a URL that
 * never changes, so that other sites may write it into their pages. The built file (and the
 * .br and .gz twins the build made) is read once at start-up and sent by Accept-Encoding. Its
 * URL carries no fingerprint, so it is cached for an hour (not for good) with an ETag to
 * revalidate against; `Cross-Origin-Resource-Policy: cross-origin` lets any site load it.
 */
const CACHE = 'public, max-age=3600';

interface Variant {
  encoding: 'br' | 'gzip' | undefined;
  body: Buffer;
}

export function embedScriptRoute(assets: WebAssets) {
  return async (scope: FastifyInstance): Promise<void> => {
    const url = assets.url(ENTRIES.embed);
    if (assets.dir === undefined || url === undefined) return;
    const file = path.join(assets.dir, url);
    const body = fs.readFileSync(file);
    const variants: Variant[] = [];
    for (const [encoding, extension] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      if (fs.existsSync(file + extension))
        variants.push({ encoding, body: fs.readFileSync(file + extension) });
    }
    variants.push({ encoding: undefined, body });
    // weak: the same script, whatever its encoding
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;

    scope.get('/embed.js', { schema: { hide: true } }, async (request, reply) => {
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', CACHE)
        .header('etag', etag)
        .header('vary', 'Accept-Encoding')
        .header('x-content-type-options', 'nosniff')
        .header('cross-origin-resource-policy', 'cross-origin');
      const match = request.headers['if-none-match'];
      if (typeof match === 'string' && match.split(/\s*,\s*/).some((tag) => tag === etag || tag === '*'))
        return reply.status(304).send();
      const accepted = acceptedEncodings(request.headers['accept-encoding']);
      const chosen = variants.find((variant) => !variant.encoding || accepted.has(variant.encoding)) ?? {
        encoding: undefined,
        body,
      };
      if (chosen.encoding) reply.header('content-encoding', chosen.encoding);
      return reply.send(chosen.body);
    });
  };
}

/** The codings an Accept-Encoding header allows (a `;q=0` one left out). */
function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of [header ?? ''].flat().join(',').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  return accepted;
}
