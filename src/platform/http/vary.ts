import type { FastifyReply } from 'fastify';

/** Adds to `Vary` rather than replacing it (CORS has put `Origin` there already). */
export function appendVary(reply: FastifyReply, ...names: string[]): FastifyReply {
  const current = reply.getHeader('vary');
  const present = String(current ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const lower = new Set(present.map((name) => name.toLowerCase()));
  const added = names.filter((name) => !lower.has(name.toLowerCase()));
  return reply.header('vary', [...present, ...added].join(', '));
}
