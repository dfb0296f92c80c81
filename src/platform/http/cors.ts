import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { refuseBrokenPreflight } from './edge.js';

/**
 * CORS (API.md §1): the public endpoints answer any origin; everything else only the origins
 * in `CORS_ORIGINS`. A route says it is public in its own options, `config: PUBLIC_ROUTE`;
 * its preflight route is then added beside it.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open to any origin (with keys, never cookies): submit, public schema, events. */
    public?: boolean;
  }
}

export const PUBLIC_ROUTE = { public: true } as const;

// Browsers read these from cross-origin responses only when told they may.
const EXPOSED_HEADERS = [
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

export async function installCors(app: FastifyInstance, config: Pick<Config, 'corsOrigins'>): Promise<void> {
  // Credentials are bearer tokens and keys, never cookies: no request needs CORS credentials.
  const shared = { credentials: false, exposedHeaders: EXPOSED_HEADERS, maxAge: 86_400 };
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
  const preflights = new Set<string>();
  app.addHook('onRoute', function addPublicPreflight(route) {
    if (route.config?.public !== true) return;
    // @fastify/cors reads `config.cors` of the route; its types do not declare it
    route.config = { ...route.config, cors: publicCors } as typeof route.config;
    if (route.method === 'OPTIONS' || preflights.has(route.url)) return;
    preflights.add(route.url);
    // The public path's own preflight (the catch-all OPTIONS route of @fastify/cors answers
    // with the others). Added from this hook, it passes through it again: marked public, with
    // OPTIONS as its method, it is only given the options above.
    // `this` is the instance the route was declared on: its path without that instance's prefix
    this.options(route.routePath, { schema: { hide: true }, config: PUBLIC_ROUTE }, async (_request, reply) =>
      reply.status(204).send(),
    );
  });
}
