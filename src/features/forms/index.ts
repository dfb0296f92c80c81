import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { qrRoutes } from './qr-routes.js';
import { type FormHooks, formRoutes } from './routes.js';
import { workingCopyRoutes } from './working-copy-routes.js';

/** Forms (API.md §5): the resource, its public view, and the events its changes raise. */
export async function registerForms(
  app: FastifyInstance,
  context: AppContext,
  hooks: FormHooks = {},
): Promise<void> {
  await app.register(formRoutes(context, hooks));
  await app.register(workingCopyRoutes(context));
  await app.register(qrRoutes(context));
}
