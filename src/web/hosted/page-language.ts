import type { FastifyRequest } from 'fastify';

/** The language a hosted page was chosen in, by its request: the scope's error pages speak it too. */
export const PAGE_LANGUAGES = new WeakMap<FastifyRequest, string>();
