import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EXTRA_REQUEST_MEDIA } from './schemas.js';

/**
 * Route options for a POST whose body is optional: an empty body sent with a JSON content
 * type (`curl -H 'content-type: application/json' -X POST …`) counts as none, rather than
 * as malformed JSON.
 */
export const emptyBodyIsNone = {
  onRequest: async (request: FastifyRequest) => {
    const { headers } = request;
    if (headers['transfer-encoding'] === undefined && (headers['content-length'] ?? '0') === '0') {
      delete headers['content-type'];
    }
  },
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every route that takes no body (a publish, a discard, a delete) gets `emptyBodyIsNone`: HTTP
 * clients that set `Content-Type: application/json` on every request (many test harnesses and
 * SDK wrappers do) send it with nothing after it, and that is no body, not malformed JSON. A
 * route with a body of its own (a JSON schema, or other media such as an upload's multipart)
 * keeps the rule as it is, or opts in itself. Routes registered after
 * this call only (Fastify's `onRoute`).
 */
export function installEmptyBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    // a body of its own, as JSON or as another media type (an upload's multipart): its rules stand
    if (route.schema?.body !== undefined || route.schema?.[EXTRA_REQUEST_MEDIA] !== undefined) return;
    const methods = [route.method].flat();
    if (!methods.some((method) => WRITES.has(method))) return;
    const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
    if (hooks.includes(emptyBodyIsNone.onRequest)) return;
    route.onRequest = [emptyBodyIsNone.onRequest, ...hooks];
  });
}
