import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireSessionOrSecretKey } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { answerInPlainJson } from '../../platform/http/plain-json.js';
import { EnvironmentQuery, noBody, problems, SECURITY, withHeaders } from '../../platform/http/schemas.js';
import { validatorCompiler } from '../../platform/http/validation.js';
import { parseEnvironmentName } from '../environments/names.js';
import { etagOf } from './commands.js';
import { FormOut, UpdateFormBody, WorkingCopyOut } from './schemas.js';
import {
  discardWorkingCopy,
  publishWorkingCopy,
  readWorkingCopy,
  saveWorkingCopyOf,
} from './working-copy.js';

/** API.md §5.5: the working copy of a published form, managed like the form (session or secret key). */

const FormIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
const OptionalEnvironment = Type.Object({ environment: Type.Optional(EnvironmentQuery) });

/** Like PUT /forms/{id}: the body is checked by the form definition validator (every problem as invalid_form). */
const bodyValidatedInHandler = {
  config: { formDefinitionBody: true },
  validatorCompiler: ((context) =>
    context.httpPart === 'body' ? () => true : validatorCompiler(context)) satisfies typeof validatorCompiler,
};

export const workingCopyRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    // a form's answers: JSON.stringify, not the schema's compiled unions (plain-json.ts)
    answerInPlainJson(app);
    const tags = ['forms'];

    app.put(
      '/forms/:id/draft',
      {
        ...bodyValidatedInHandler,
        schema: {
          tags,
          summary:
            'Save the working copy of a live or active form: members replace the copy’s; respondents keep the live form',
          operationId: 'saveFormDraft',
          security: SECURITY.sessionOrSecretKey,
          params: FormIdParams,
          querystring: OptionalEnvironment,
          body: UpdateFormBody,
          response: {
            200: withHeaders(WorkingCopyOut, [], 'The working copy'),
            ...problems(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        const principal = requireSessionOrSecretKey(request);
        return saveWorkingCopyOf(context, principal, request.params.id, request.body, environment);
      },
    );

    app.get(
      '/forms/:id/draft',
      {
        schema: {
          tags,
          summary: 'Read the working copy of a form (404 when it has none)',
          operationId: 'getFormDraft',
          security: SECURITY.sessionOrSecretKey,
          params: FormIdParams,
          querystring: OptionalEnvironment,
          response: {
            200: withHeaders(WorkingCopyOut, [], 'The working copy'),
            ...problems(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        const principal = requireSessionOrSecretKey(request);
        reply.header('cache-control', 'private, no-store');
        return readWorkingCopy(context, principal, request.params.id, environment);
      },
    );

    app.post(
      '/forms/:id/draft/publish',
      {
        schema: {
          tags,
          summary: 'Publish the working copy: it becomes the form (version + 1) and is gone',
          operationId: 'publishFormDraft',
          security: SECURITY.sessionOrSecretKey,
          params: FormIdParams,
          querystring: OptionalEnvironment,
          headers: Type.Object({
            'If-Match': Type.Optional(
              Type.String({
                description: 'The ETag of the form read: if it has changed since, the answer is 412',
              }),
            ),
          }),
          response: {
            200: withHeaders(FormOut, ['ETag'], 'The form, as respondents now get it'),
            ...problems(400, 401, 403, 404, 412),
          },
        },
      },
      async (request, reply) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        const principal = requireSessionOrSecretKey(request);
        const { form, view } = await publishWorkingCopy(context, principal, request.params.id, {
          environment,
          ifMatch: request.headers['if-match'],
        });
        return reply.header('etag', etagOf(form.version)).send(view);
      },
    );

    app.delete(
      '/forms/:id/draft',
      {
        schema: {
          tags,
          summary: 'Discard the working copy; the live form stays as it is',
          operationId: 'discardFormDraft',
          security: SECURITY.sessionOrSecretKey,
          params: FormIdParams,
          querystring: OptionalEnvironment,
          response: { 204: noBody('Discarded'), ...problems(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        await discardWorkingCopy(context, requireSessionOrSecretKey(request), request.params.id, environment);
        return reply.status(204).send(null);
      },
    );
  };
