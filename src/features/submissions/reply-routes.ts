import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Action } from '../../platform/access.js';
import type { AppContext } from '../../platform/context.js';
import { EnvironmentQuery, problems, SECURITY } from '../../platform/http/schemas.js';
import { MailError, type Mailer } from '../../platform/mail.js';
import { badRequest, Problem } from '../../platform/problem.js';
import { findUserById } from '../accounts/repo.js';
import type { StoredForm } from '../forms/repo.js';
import { isMailAddress } from './mail.js';
import { mask } from './pii.js';
import type { StoredSubmission } from './repo.js';

/**
 * POST /responses/{id}/reply (API.md §6.2): the owner answers a submission by e-mail,
 * sent at once through the configured transport (SMTP, or a `.eml` file).
 */

type App = Parameters<FastifyPluginAsyncTypebox>[0];

export type ManagedSubmission = (
  request: FastifyRequest,
  id: string,
  scope: { form_id?: string; environment?: string },
  action: Action,
) => Promise<{ form: StoredForm; submission: StoredSubmission }>;

const ReplyBody = Type.Object(
  {
    subject: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    message: Type.String({ minLength: 1, maxLength: 50_000 }),
  },
  { additionalProperties: false },
);
const ReplyResult = Type.Object({
  messageId: Type.String({ description: 'The Message-ID of the e-mail sent' }),
  to: Type.String({
    description: 'The recipient, shown as the owner may see it (masked if the field is masked)',
  }),
});

/**
 * The submission's first `email` answer (form field order) that is an address we can
 * send to: plain and masked answers are stored in the clear, encrypted ones are
 * decrypted; hashed answers cannot be, and are passed over. `shown` is what the owner may
 * see of it (masked stays masked).
 */
export async function replyRecipient(
  form: StoredForm,
  submission: StoredSubmission,
  envelope: AppContext['envelope'],
): Promise<{ address: string; shown: string } | undefined> {
  for (const field of form.definition.fields) {
    if (field.type !== 'email') continue;
    const stored = submission.answers[field.id];
    if (stored === undefined || stored === null) continue;
    if (typeof stored === 'string') {
      if (isMailAddress(stored)) return { address: stored, shown: stored };
    } else if (typeof stored === 'object' && !Array.isArray(stored)) {
      if ('$dropped' in stored) continue;
      if ('$masked' in stored) {
        if (isMailAddress(stored.$masked)) return { address: stored.$masked, shown: mask(stored.$masked) };
      } else {
        const value: unknown = JSON.parse(await envelope.decrypt(stored.$encrypted));
        if (isMailAddress(value)) return { address: value, shown: value };
      }
    }
  }
  return undefined;
}

export function registerReplyRoute(
  app: App,
  deps: { context: AppContext; mailer: Mailer; managedSubmission: ManagedSubmission; tags: string[] },
): void {
  const { context, mailer, managedSubmission, tags } = deps;
  app.post(
    '/responses/:id/reply',
    {
      schema: {
        tags,
        summary: 'Reply to a submission by e-mail (to its first e-mail answer)',
        operationId: 'replyToResponse',
        security: SECURITY.sessionOrSecretKey,
        params: Type.Object({ id: Type.String({ maxLength: 200 }) }),
        querystring: Type.Object({
          form_id: Type.Optional(Type.String({ maxLength: 200 })),
          environment: Type.Optional(EnvironmentQuery),
        }),
        body: ReplyBody,
        response: { 200: ReplyResult, ...problems(400, 401, 403, 404, 502) },
      },
    },
    async (request) => {
      const { form, submission } = await managedSubmission(
        request,
        request.params.id,
        request.query,
        'triage',
      );
      const { message, subject } = request.body;
      if (message.trim() === '') {
        throw badRequest('validation_failed', 'A reply needs a message', {
          errors: [{ field: 'message', code: 'minLength', message: 'must not be blank' }],
        });
      }
      const recipient = await replyRecipient(form, submission, context.envelope);
      if (!recipient) {
        throw badRequest(
          'no_recipient',
          `Submission ${submission.id} has no e-mail answer to reply to (hashed and dropped answers cannot be used)`,
        );
      }
      const owner = await findUserById(context.database.db, form.userId);
      try {
        const sent = await mailer.send({
          to: recipient.address,
          subject: subject ?? `Re: ${form.title}`,
          text: message,
          // the submitter's answer goes to the owner, not to Intake's sender address
          ...(owner ? { replyTo: owner.email } : {}),
        });
        return { messageId: sent.messageId, to: recipient.shown };
      } catch (error) {
        if (!(error instanceof MailError)) throw error;
        request.log.warn({ err: error.message, submissionId: submission.id }, 'reply not sent');
        const code = error.responseCode ? ` (${error.responseCode})` : '';
        throw new Problem(
          502,
          'mail_failed',
          `The mail transport refused the reply${code}; nothing was sent`,
        );
      }
    },
  );
}
