import type { FastifyReply } from 'fastify';

/**
 * Has `reply` send its body as `JSON.stringify` writes it, not through the serializer compiled
 * from the route's response schema. For answers whose schema holds unions of large objects: a
 * form, whose fields are a union of every field type, and the forms list, a union of the owner's
 * and the public view. fast-json-stringify picks a union's member by validating the value against
 * each member with Ajv, and compiles those validators the first time a route answers, for each
 * route on its own. Measured on the built service: the first GET /forms/{id} after a start took
 * 738 ms and grew the process by 87 MiB (RSS 125 → 212 MiB), the first GET /forms after it another
 * 581 ms and 53 MiB, kept for the process's life; every later answer validated each field against
 * the field types again.
 *
 * What goes out is still what the schema says: the presenters (features/forms/presenter.ts) build
 * each member by name, and every API test holds every answer to the OpenAPI document
 * (test/support/openapi-check.ts). Call it once the handler answers 2xx, after its last await: a
 * problem thrown after it would be written by it too.
 */
export function asPlainJson(reply: FastifyReply): FastifyReply {
  return reply.type('application/json; charset=utf-8').serializer(JSON.stringify);
}
