import type { FastifyRequest } from 'fastify';

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
