import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ComponentChildren } from 'preact';
import type { EventRecorder } from '../../features/analytics/commands.js';
import type { EventType } from '../../features/analytics/schemas.js';
import { mayPreview } from '../../features/forms/access.js';
import { presentPublicForm } from '../../features/forms/presenter.js';
import type { StoredForm } from '../../features/forms/repo.js';
import type { Field } from '../../features/forms/schemas.js';
import {
  captchaTokenOf,
  formFields,
  parseAnswer,
  redirectTarget,
} from '../../features/submissions/form-posts.js';
import { idempotencyFor } from '../../features/submissions/idempotency.js';
import type { SubmissionService } from '../../features/submissions/service.js';
import { validatorFor } from '../../features/submissions/validator.js';
import { sessionFromCookie } from '../../platform/auth.js';
import { notFound, Problem } from '../../platform/problem.js';
import { visibleAnswers } from '../../shared/logic.js';
import { FormPage, QuestionPage } from '../components/form/form-page.js';
import type { PageError, PublicForm } from '../components/form/types.js';
import type { PageContext } from '../pages.js';
import { sendPage } from '../render.js';
import { FormDocument, policyFor, ThankYouDocument } from './document.js';

/**
 * The hosted form (API.md §11.1), registered in the /f scope: `GET /f/{formId}` renders a live
 * form's page, `POST /f/{formId}` takes its post (application/x-www-form-urlencoded, parsed in
 * this scope only) through the same `SubmissionService` as the API. It works without JavaScript
 * (the page has no script; embedded, only one it does not need), in both layouts: `classic`,
 * every field on one page (a field the logic may hide says when it applies); `one-by-one`, a
 * server-driven sequence of pages, one question each, the answers so far carried in hidden
 * inputs, the logic decided here with logic.ts, nothing stored until the last page is sent.
 * `?embed=1` (API.md §11.2) asks for the page as a frame shows it (document.tsx), and every
 * page that follows stays so: the form posts to `/f/{formId}?embed=1`.
 *
 * `?preview=1` asked by the form's owner (the dashboard's session cookie, read here and only
 * then: the scope ignores the cookie) shows the form in any status, as it will look, under a
 * banner, and its posts store nothing and count nothing: they are validated like the real ones,
 * and a valid one ends on the thank-you page, which says that nothing was stored. Asked by
 * anyone else, `preview=1` changes nothing (a form that is not live stays the 404 page).
 */
export interface HostedDependencies {
  submissions: SubmissionService;
  events: EventRecorder;
  /** The form with that id, whatever its status (for its owner's preview). */
  forms: (formId: string) => Promise<StoredForm | undefined>;
}

type Fields = Record<string, unknown>;

/** The CAPTCHA's errors on the page, under the name of its token's control (the error summary shows them as text). */
const CAPTCHA = '_captcha';
const CAPTCHA_UNDONE = 'Complete the check that you are not a robot, then send the form again.';
const CAPTCHA_FAILED =
  'The check that you are not a robot did not pass: do it again, then send the form again.';
const IDEMPOTENCY = '_idempotency';
const SENT_ALREADY =
  'This form was sent already, with other answers. Send it again to send these answers as a new response.';
const SPAM_REFUSED =
  'Your response could not be accepted. If you are a person, try again later, or contact the people who published this form.';

/** Session ids and idempotency keys the page makes: 128 random bits, URL-safe. */
const token = () => randomBytes(16).toString('base64url');
const SESSION = /^[A-Za-z0-9_-]{1,200}$/;
export function hostedRoutes(page: PageContext, { submissions, events, forms }: HostedDependencies) {
  return async (scope: FastifyInstance): Promise<void> => {
    // HTML form posts, in this scope only: every other route keeps answering 415 to them.
    await scope.register(formbody, { bodyLimit: scope.initialConfig.bodyLimit ?? 1024 * 1024 });

    /** Anyone sees a live form; any other form, and an unknown one, is the 404 page. */
    async function liveForm(formId: string): Promise<StoredForm> {
      try {
        const form = await submissions.formFor(null, formId);
        if (form.status === 'live') return form;
      } catch (error) {
        if (!(error instanceof Problem) || (error.status !== 404 && error.status !== 403)) throw error;
      }
      throw notFound(`No form ${formId}`);
    }

    /**
     * `?preview=1` by the form's owner: the form, whatever its status; otherwise (no preview asked,
     * no cookie session, or another user's) undefined, and the page is what anyone gets.
     */
    async function previewed(
      request: FastifyRequest<{ Params: { formId: string } }>,
      reply: FastifyReply,
    ): Promise<StoredForm | undefined> {
      if (!isPreview(request)) return undefined;
      const userId = await sessionFromCookie(request);
      if (userId === null) return undefined;
      const form = await forms(request.params.formId);
      if (!form || !mayPreview(userId, form)) return undefined;
      // never kept (sendPage's no-store), never indexed
      reply.header('x-robots-tag', 'noindex');
      return form;
    }

    /** Analytics never fail a page: over its rate limit, or when storing fails, the event is left out (and logged). */
    async function record(
      form: StoredForm,
      type: EventType,
      sessionId: string,
      ip: string,
      log: FastifyBaseLogger,
    ) {
      try {
        await events.countAttempt(ip);
        await events.record(form, type, sessionId);
      } catch (error) {
        log.warn({ err: error, formId: form.id, type }, 'the page could not record its analytics event');
      }
    }

    scope.get<{ Params: { formId: string }; Querystring: Record<string, string | string[]> }>(
      '/:formId',
      { schema: { hide: true } },
      async (request, reply) => {
        const preview = await previewed(request, reply);
        const form = preview ?? (await liveForm(request.params.formId));
        const sessionId = token();
        // a HEAD (a link checker, a link preview) is no view, nor is the owner's preview
        if (request.method === 'GET' && !preview)
          await record(form, 'view', sessionId, request.ip, request.log);
        // Hidden fields take their value from the query string (`?source=newsletter`): how links carry context.
        const answers: Fields = {};
        for (const field of form.definition.fields) {
          const given = request.query[field.id];
          if (field.type === 'hidden' && given !== undefined)
            answers[field.id] = Array.isArray(given) ? given[0] : given;
        }
        const state = {
          answers,
          sessionId,
          idempotencyKey: token(),
          embedded: isEmbedded(request),
          preview: preview !== undefined,
        };
        const first = oneByOne(form) ? visibleQuestions(form, answers)[0] : undefined;
        return first ? sendQuestion(reply, form, first, state) : sendForm(reply, form, state);
      },
    );

    scope.post<{ Params: { formId: string } }>(
      '/:formId',
      { schema: { hide: true } },
      async (request, reply) => {
        const fields = formFields(request.body);
        const preview = await previewed(request, reply);
        const form = preview ?? (await submissions.formFor(null, request.params.formId));
        const session = firstText(fields._session);
        const sessionId = session !== undefined && SESSION.test(session) ? session : token();
        const key = firstText(fields._idempotency);
        // the first page posted is the start (counted once per session; later pages say it is counted)
        if (fields._started === undefined && !preview)
          await record(form, 'start', sessionId, request.ip, request.log);
        const embedded = isEmbedded(request);
        const post: Post = {
          form,
          fields,
          answers: answersOf(form, fields),
          sessionId,
          key,
          embedded,
          preview: preview !== undefined,
        };
        if (!oneByOne(form)) {
          return submitAll(request, reply, post, (errors, fresh) =>
            // The page again, with what went wrong and every answer kept. 400, not 200: the post
            // was refused and nothing was stored, which is what the status says to anything that
            // is not a person (a test, a proxy's logs, a browser's devtools); browsers show the page alike.
            sendForm(reply, form, {
              answers: post.answers,
              errors,
              sessionId,
              idempotencyKey: fresh || !key ? token() : key,
              started: true,
              status: 400,
              embedded,
              preview: post.preview,
            }),
          );
        }
        return step(request, reply, post);
      },
    );

    /**
     * One page of the one-by-one layout posted: Back goes to the previous question without
     * validating; Next (or the submit label) validates this page's question alone, then goes to the
     * next question visible given the answers so far, or, when there is none, submits them all.
     */
    async function step(request: FastifyRequest, reply: FastifyReply, post: Post) {
      const { form, fields, answers, sessionId, embedded, preview } = post;
      const idempotencyKey = post.key ?? token();
      const visible = visibleQuestions(form, answers);
      const questionId = firstText(fields._question);
      const current = form.definition.fields.find(
        (field) => field.id === questionId && field.type !== 'hidden',
      );
      const state = { answers, sessionId, idempotencyKey, started: true, embedded, preview };
      if (!current) {
        const first = visible[0];
        return first ? sendQuestion(reply, form, first, state) : sendForm(reply, form, state);
      }
      const order = (field: Field) => form.definition.fields.indexOf(field);
      if (firstText(fields._action) === 'back') {
        const previous = visible.filter((field) => order(field) < order(current)).at(-1) ?? current;
        return sendQuestion(reply, form, previous, state);
      }
      const errors = validatorFor(form)(withoutHidden(form, answers)).errors.filter(
        (error) => error.field === current.id,
      );
      if (errors.length > 0) return sendQuestion(reply, form, current, { ...state, errors, status: 400 });
      const next = visible.find((field) => order(field) > order(current));
      if (next) return sendQuestion(reply, form, next, state);
      return submitAll(request, reply, post, (problems, fresh) => {
        // errors are shown per page: the first question (in order) that has one, with its own
        const failing = visible.find((field) => problems.some((error) => error.field === field.id));
        const shown = failing ? problems.filter((error) => error.field === failing.id) : problems;
        const key = fresh ? token() : idempotencyKey;
        return sendQuestion(reply, form, failing ?? current, {
          ...state,
          idempotencyKey: key,
          errors: shown,
          status: 400,
        });
      });
    }

    /** Submits a post's answers (those the logic hides dropped): the thank-you page or the redirect; `invalid` answers a 400 validation problem. */
    async function submitAll(
      request: FastifyRequest,
      reply: FastifyReply,
      { form, fields, answers, sessionId, key, embedded, preview }: Post,
      /** The page again with `errors`; `fresh`: with a new idempotency key (the old one is spent). */
      invalid: (errors: PageError[], fresh?: boolean) => FastifyReply,
    ) {
      if (preview) {
        // the owner's preview: validated like a real post, then nothing stored, counted or sent
        const errors = validatorFor(form)(withoutHidden(form, answers)).errors;
        if (errors.length > 0) return invalid(errors.map(({ field, message }) => ({ field, message })));
        return sendThankYou(reply, form, { embedded, preview: true });
      }
      // the submit rate limit counts submissions, not the pages of a one-by-one form on the way
      reply.headers(await submissions.countAttempt(null, request.ip));
      // A CAPTCHA left undone is the respondent's to fix, on the form with their answers: not spam yet.
      const captcha = form.definition.spamProtection?.captcha;
      const captchaToken = captchaTokenOf(fields);
      if (captcha && captchaToken === undefined)
        return invalid([{ field: CAPTCHA, message: CAPTCHA_UNDONE }]);
      const honeypot = form.definition.spamProtection?.honeypot?.field;
      const submitted = withoutHidden(form, answers);
      if (honeypot && Object.hasOwn(fields, honeypot)) submitted[honeypot] = fields[honeypot];
      let submissionId: string;
      try {
        const result = await submissions.submit({
          form,
          principal: null,
          answers: submitted,
          sessionId,
          // the widget's token (components/form/captcha.tsx), under its provider's name
          captchaToken,
          remoteIp: request.ip,
          idempotency: idempotencyFor(key, { answers: submitted, sessionId }),
        });
        submissionId = result.id;
        request.log.info({ submissionId, embedded }, 'hosted form submitted');
      } catch (error) {
        if (!(error instanceof Problem)) throw error;
        if (error.code === 'spam_detected') {
          // The CAPTCHA's own verdict (a token expired or failed) is the respondent's to mend, on
          // the form. Any other (the honeypot, a rule) is told in words that name no mechanism.
          if (captcha && error.detail.includes('CAPTCHA'))
            return invalid([{ field: CAPTCHA, message: CAPTCHA_FAILED }], true);
          throw new Problem(400, 'spam_detected', SPAM_REFUSED);
        }
        // The same page sent again with other answers (Back after the thank-you page, answers
        // changed): stored once already, so say so, and let a new send be a new response.
        if (error.status === 409) return invalid([{ field: IDEMPOTENCY, message: SENT_ALREADY }], true);
        if (error.code !== 'validation_failed') throw error;
        return invalid((error.options.errors ?? []).map(({ field, message }) => ({ field, message })));
      }
      const redirect = redirectTarget(form, undefined);
      reply.header('cache-control', 'no-store');
      // The page's script posts by fetch, which may not follow a redirect to another origin:
      // it is told where to go instead, and goes there itself.
      if (redirect && request.headers['x-intake-page'] === '1') {
        // embedded, the parent page hears of the submission before it leaves (frame.ts)
        if (embedded) reply.header('x-intake-submission', submissionId);
        return reply.code(204).header('x-intake-redirect', redirect.href).send();
      }
      if (redirect) return reply.redirect(redirect.href, 303);
      return sendThankYou(reply, form, { embedded, submissionId: embedded ? submissionId : undefined });
    }

    function sendThankYou(
      reply: FastifyReply,
      form: StoredForm,
      options: { embedded: boolean; preview?: boolean; submissionId?: string },
    ) {
      const policy = policyFor(form, options.embedded, options.preview);
      return sendPage(
        reply,
        <ThankYouDocument form={presentPublicForm(form)} page={page} nonce={policy.nonce} {...options} />,
        { policy, cache: 'no-store' },
      );
    }

    /** A page of the form: its document around `body`, never kept (each page carries its own idempotency key, and Back must not post an old one again). */
    function sendFormPage(
      reply: FastifyReply,
      form: StoredForm,
      state: PageState,
      title: string,
      body: (view: PublicForm) => ComponentChildren,
    ) {
      const view = presentPublicForm(form);
      const policy = policyFor(form, state.embedded, state.preview);
      return sendPage(
        reply,
        <FormDocument
          form={view}
          page={page}
          nonce={policy.nonce}
          embedded={state.embedded}
          preview={state.preview}
          title={state.errors?.length ? `Error: ${title}` : title}
        >
          {body(view)}
        </FormDocument>,
        { status: state.status ?? 200, policy, cache: 'no-store' },
      );
    }

    function sendForm(reply: FastifyReply, form: StoredForm, state: PageState) {
      return sendFormPage(reply, form, state, form.title, (view) => (
        <FormPage
          form={view}
          action={actionOf(form, state)}
          answers={state.answers}
          errors={state.errors}
          sessionId={state.sessionId}
          idempotencyKey={state.idempotencyKey}
          started={state.started}
          embedded={state.embedded}
        />
      ));
    }

    /** One question of a one-by-one form, "Question n of m" counting the questions visible given the answers so far. */
    function sendQuestion(reply: FastifyReply, form: StoredForm, field: Field, state: PageState) {
      const visible = visibleQuestions(form, state.answers);
      const order = (other: Field) => form.definition.fields.indexOf(other);
      const before = visible.filter((other) => order(other) < order(field)).length;
      const shown = visible.includes(field);
      const position = { n: before + 1, m: visible.length + (shown ? 0 : 1) };
      const title = `Question ${position.n} of ${position.m} – ${form.title}`;
      return sendFormPage(reply, form, state, title, (view) => (
        <QuestionPage
          form={view}
          action={actionOf(form, state)}
          field={view.fields[order(field)] ?? field}
          position={position}
          first={before === 0}
          last={!visible.some((other) => order(other) > order(field))}
          answers={state.answers}
          errors={state.errors}
          sessionId={state.sessionId}
          idempotencyKey={state.idempotencyKey}
          started={state.started}
          embedded={state.embedded}
        />
      ));
    }
  };
}

interface PageState {
  answers: Fields;
  started?: boolean;
  errors?: PageError[];
  sessionId: string;
  idempotencyKey: string;
  status?: number;
  /** `?embed=1`: the page in a frame (document.tsx), its form posting there again. */
  embedded: boolean;
  /** The owner's `?preview=1`: the banner, and the form posting there again. */
  preview?: boolean;
}

/** A page's post, read. */
interface Post {
  form: StoredForm;
  /** Every name posted (controls included). */
  fields: Fields;
  /** The answers to the form's fields, parsed (form-posts.ts). */
  answers: Fields;
  sessionId: string;
  key: string | undefined;
  embedded: boolean;
  /** The owner's preview: validated, never stored. */
  preview: boolean;
}

const queryFlag = (request: FastifyRequest, name: string): boolean =>
  firstText((request.query as Record<string, unknown> | undefined)?.[name]) === '1';
const isEmbedded = (request: FastifyRequest): boolean => queryFlag(request, 'embed');
const isPreview = (request: FastifyRequest): boolean => queryFlag(request, 'preview');

/** Where a page posts: its own address, keeping `?embed=1` and the owner's `?preview=1`. */
function actionOf(form: StoredForm, { embedded, preview }: Pick<PageState, 'embedded' | 'preview'>): string {
  const flags = [embedded && 'embed=1', preview && 'preview=1'].filter(Boolean);
  return `/f/${encodeURIComponent(form.id)}${flags.length > 0 ? `?${flags.join('&')}` : ''}`;
}

const oneByOne = (form: StoredForm) => form.definition.ui.layout !== 'classic';

/** The questions (every field but hidden ones) the logic shows given these answers, in order. */
function visibleQuestions(form: StoredForm, answers: Fields): Field[] {
  const { hidden } = visibleAnswers(form.definition.logic, answers);
  return form.definition.fields.filter((field) => field.type !== 'hidden' && !hidden.has(field.id));
}

const firstText = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
};

/** A page's post read against its form's fields: numbers, booleans and lists parsed (form-posts.ts); other names ignored. */
function answersOf(form: StoredForm, fields: Fields): Fields {
  const answers: Fields = Object.create(null);
  for (const field of form.definition.fields) {
    if (Object.hasOwn(fields, field.id)) answers[field.id] = parseAnswer(field, fields[field.id]);
  }
  return answers;
}

/**
 * The answers without those the logic hides (API.md §11.1: on a page post they are dropped,
 * not refused), and without blank ones (shared/logic.ts, which the page's script runs too).
 */
const withoutHidden = (form: StoredForm, answers: Fields): Fields =>
  visibleAnswers(form.definition.logic, answers).answers;
