import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListOf, problems, respond, SECURITY } from '../../platform/http/schemas.js';
import type { ResponsesQueryInput } from './schemas.js';

/**
 * `GET /environments/{environment}/responses?form_id=F` (API.md §8): the path-parameter
 * spelling the service is moving away from, answered by the `GET /responses` handler
 * itself, so the two cannot drift, with `Deprecation` and a `successor-version` link.
 */

type App = Parameters<FastifyPluginAsyncTypebox>[0];

export interface LegacyResponsesOptions {
  list: (
    request: FastifyRequest,
    reply: FastifyReply,
    query: ResponsesQueryInput,
  ) => Promise<FastifyReply | { data: unknown[]; nextCursor: string | null }>;
  /** The successor's query schema; `environment` comes from the path instead. */
  querystring: TObject;
  /** One submission, as the successor lists it. */
  item: TSchema;
  /** The successor's exports (format=csv|xlsx|ndjson), by media type. */
  exports: Record<string, TSchema>;
  tags: string[];
}

export function registerLegacyResponsesRoute(app: App, options: LegacyResponsesOptions): void {
  app.get(
    '/environments/:environment/responses',
    {
      schema: {
        tags: options.tags,
        deprecated: true,
        summary: 'Deprecated: use GET /responses?form_id=&environment=',
        operationId: 'listEnvironmentResponses',
        security: SECURITY.sessionOrSecretKey,
        params: Type.Object({ environment: Type.String() }),
        querystring: Type.Omit(options.querystring, ['environment']),
        response: {
          200: respond(
            'As GET /responses answers',
            { 'application/json': ListOf(options.item), ...options.exports },
            ['Deprecation', 'Link', 'Content-Disposition'],
          ),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const query = request.query as Omit<ResponsesQueryInput, 'environment'>;
      const environment = request.params.environment;
      const successor = new URLSearchParams({ environment });
      if (query.form_id !== undefined) successor.set('form_id', query.form_id);
      reply
        .header('deprecation', 'true')
        .header('link', `</responses?${successor}>; rel="successor-version"`);
      return options.list(request, reply, { ...query, environment });
    },
  );
}
