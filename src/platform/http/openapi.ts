import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** The OpenAPI document (`/openapi.json`), built from the routes' own TypeBox schemas, and its reader at `/docs`. */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Intake',
        version: '1.0.0',
        description:
          'Self-hostable form collection: forms, submissions, keys, webhooks. Errors are RFC 9457 problem details.',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A session token, a secret key or a publishable key',
          },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          publishableKey: { type: 'apiKey', in: 'header', name: 'X-Publishable-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }, { publishableKey: [] }, {}],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
