import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';

/**
 * The ceiling: a bare Fastify route that parses the same JSON body as the submit route,
 * validates it against a body schema of the benchmark form's five fields, and answers 201
 * with a body of the same shape as Intake's. Nothing is stored. Listens on PORT.
 */

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });

app.post(
  '/forms/:id/submit',
  {
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['answers'],
        properties: {
          answers: {
            type: 'object',
            required: ['name', 'email'],
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 100 },
              email: { type: 'string', format: 'email' },
              topic: { type: 'string', enum: ['sales', 'support', 'billing', 'other'] },
              seats: { type: 'integer', minimum: 1, maximum: 10 },
              message: { type: 'string', maxLength: 2000 },
            },
          },
          sessionId: { type: 'string', maxLength: 200 },
          captchaToken: { type: 'string', maxLength: 10_000 },
        },
      },
    },
  },
  async (request, reply) => {
    const { id } = request.params as { id: string };
    return reply.status(201).send({
      id: `sub_${randomUUID()}`,
      formId: id,
      environment: 'development',
      status: 'accepted',
      createdAt: new Date().toISOString(),
    });
  },
);

const port = Number(process.env.PORT ?? 0);
const address = await app.listen({ host: '127.0.0.1', port });
console.log(`ceiling ready ${address}`);

const stop = () => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
