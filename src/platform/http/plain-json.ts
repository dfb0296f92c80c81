import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Has the routes of `scope` (a plugin's own, encapsulated) send their 2xx JSON as
 * `JSON.stringify` writes it, not through the serializer compiled from each route's response
 * schema. For answers whose schema holds unions of large objects: a form, whose fields are a
 * union of every field type, and the forms list, a union of the owner's and the public view.
 * fast-json-stringify picks a union's member by validating the value against each member with
 * Ajv, and compiles those validators the first time a route answers, for each route on its own.
 * Measured on the built service: the first GET /forms/{id} after a start took 738 ms and grew the
 * process by 87 MiB (RSS 125 → 212 MiB), the first GET /forms after it another 581 ms and 53 MiB,
 * kept for the process's life; every later answer validated each field against the field types
 * again.
 *
 * What goes out is still what the schema says: the presenters (features/forms/presenter.ts) build
 * each member by name, the output schemas are closed, and every API test holds every answer to
 * the OpenAPI document (test/support/openapi-check.ts). Problems (4xx, 5xx) keep their schema's
 * serializer. A hook of the scope, not of the app: nothing is added to other routes' answers.
 */
export function answerInPlainJson(scope: FastifyInstance): void {
  scope.addHook('preSerialization', plainJsonWhenSuccessful);
}

/**
 * The same for one route (its `preSerialization` option): a page of submissions, whose answers
 * are free-form objects. fast-json-stringify writes those member by member, escaping each string
 * with its own regular expression and joining hundreds of pieces, then the pieces are flattened
 * to be sent: measured on the built service, a page of 50 allocated ~230 kB, two thirds of it in
 * the compiled serializer and the flattening, and took ~11 % of the request's CPU (GET /responses
 * at 1M rows, V8's sampling heap profiler with collected objects, and `--cpu-prof`).
 * `JSON.stringify` writes one flat string.
 */
export function plainJsonWhenSuccessful(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  // read by Fastify after the hooks have run, in place of the route's compiled serializer
  if (reply.statusCode < 300) reply.serializer(JSON.stringify);
  done(null, payload);
}
