import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';

/**
 * The Host of a request to this machine itself: a loopback name or address, or the configured
 * HOST, and at most a port: nothing else (no user info such as `localhost:@evil.example`, no path).
 */
function selfHost(host: string, configured: string): boolean {
  const name = `(?:localhost|127(?:\\.\\d{1,3}){3}|\\[::1\\]|${configured.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`;
  return new RegExp(`^${name}(?::\\d{1,5})?$`, 'i').test(host);
}

/**
 * Where a mailed link (a password reset, an invitation) leads: `PUBLIC_URL`; without it, the
 * origin the request came to, but only when that is this machine itself (selfHost). A link
 * built from any Host header would let whoever asks choose the site a token is sent to; then
 * there is no origin (undefined), and no link may be mailed.
 */
export function linkOrigin(
  request: FastifyRequest,
  config: Pick<Config, 'publicUrl' | 'host'>,
): string | undefined {
  if (config.publicUrl) return config.publicUrl;
  // (Fastify: `host` is the Host header as sent, port included)
  const { host } = request;
  return selfHost(host, config.host) ? `${request.protocol}://${host}` : undefined;
}
