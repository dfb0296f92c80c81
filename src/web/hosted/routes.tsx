import { PassThrough } from 'node:stream';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EventRecorder } from '../../features/analytics/commands.js';
import type { EventType } from '../../features/analytics/schemas.js';
import type { StoredFile } from '../../features/files/repo.js';
import { assertUploadSize } from '../../features/files/routes.js';
import { mayPreview } from '../../features/forms/access.js';
import { cachedFormNow, type StoredForm } from '../../features/forms/repo.js';
import { requestedLanguageOf } from '../../features/forms/translations.js';
import { answersOf, asksForJson, firstText, isJsonBody } from '../../features/submissions/form-posts.js';
import { fileIdentities, requestedIdempotencyKey } from '../../features/submissions/idempotency.js';
import { formFields, readMultipartPost } from '../../features/submissions/post-body.js';
import { keepsProgress } from '../../features/submissions/progress.js';
import type { SubmissionService } from '../../features/submissions/service.js';
import { invalidSubmission } from '../../features/submissions/submit.js';
import { sessionFromCookie } from '../../platform/auth.js';
import { requestId } from '../../platform/http/edge.js';
import type { FrontDoor } from '../../platform/http/front-door.js';
import { timeOrderedToken } from '../../platform/ids.js';
import { notFound, Problem } from '../../platform/problem.js';
import type { FieldError } from '../../shared/form.js';
import { firstQuestion, refusedAt, stepFrom } from '../../shared/walk.js';
import { PASSWORD_CONTROL } from '../components/form/access-pages.js';
import type { PageContext } from '../pages.js';
import { accessGate } from './access-gate.js';
import { formPages, type PageState, type ShownForm, shownForm } from './form-pages.js';
import { captchaFailed, captchaUndone, sentAlready, spamRefused } from './messages.js';
import { PAGE_LANGUAGES } from './page-language.js';
import { cookiesOf, formCookieScope, queryFlag } from './page-request.js';
import { PageReplays } from './replays.js';
import { RESUME_COOKIE, savedProgressPages } from './saved-progress.js';

/**
 * The hosted form (API.md §11.1), registered in the /f scope: `GET /f/{formId}` renders a live
 * form's page, `POST /f/{formId}` takes its post (application/x-www-form-urlencoded, parsed in
 * this scope only) through `SubmissionService.submitPost`. It works without JavaScript (the page
 * has no script; embedded, only one it does not need), in both layouts: `classic`, every field
 * on one page; `one-by-one`, a server-driven sequence of pages (walk.ts), one question each, the
 * answers so far carried in hidden inputs and kept as a partial response at each step (saved
 * progress, saved-progress.tsx), submitted when the last page is sent. Response controls' pages
 * come first (access-gate.ts). The pages themselves are form-pages.tsx's. `?embed=1` (API.md §11.2) asks for the page as a frame shows
 * it (document.tsx), and every page that follows stays so: the form posts to `/f/{formId}?embed=1`.
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
  /** Whether the user is a member of the workspace (any role previews its forms). */
  isMember: (workspaceId: string, userId: string) => Promise<boolean>;
  /** Where the first page is answered again before routing (replays.ts). */
  frontDoor: FrontDoor;
}

type Fields = Record<string, unknown>;

const SESSION = /^[A-Za-z0-9_-]{1,200}$/;

export function hostedRoutes(
  page: PageContext,
  { submissions, events, forms, isMember, frontDoor }: HostedDependencies,
) {
  const pages = formPages(page);
  return async (scope: FastifyInstance): Promise<void> => {
    // response controls (API.md §15): the closed, answered and password pages instead of the form
    const gates = accessGate({
      controls: submissions.controls,
      pages,
      production: page.production,
      pageLanguage,
    });
    // saved progress (API.md §15): resumed pages, the answers kept at each step, "Save and continue later"
    const { resume, keepProgress, saveForLater } = savedProgressPages({
      pages,
      progress: submissions.progress,
      production: page.production,
      recordView: (form, sessionId, request) => record(form, 'view', sessionId, request.ip, request.log),
      pageLanguage,
    });
    // the first page as a link's reader gets it, answered again before routing (issue 24)
    const replays = new PageReplays({
      current: cachedFormNow,
      recordView: (form, sessionId, raw) =>
        record(form, 'view', sessionId, frontDoor.clientAddress(raw), scope.log),
      requestId,
      // the route logs every request at info: a replay would not
      enabled: !['info', 'debug', 'trace'].includes(scope.log.level),
      closing: () => frontDoor.closing,
      onError: (error) => scope.log.error({ err: error }, 'a replayed page failed: routed instead'),
    });
    frontDoor.add(replays.answer);
    // HTML form posts, in this scope only: every other route keeps answering 415 to them.
    const bodyLimit = scope.initialConfig.bodyLimit ?? 1024 * 1024;
    await scope.register(formbody, { bodyLimit });
    // a page with a file question posts multipart (API.md §12): its files stream into storage as uploads
    await scope.register(multipart, {
      limits: { fieldSize: bodyLimit, fields: 1000, parts: 1000, fileSize: submissions.files.uploadMaxBytes },
    });

    /**
     * A page's post: its fields, the files in it taken as uploads (none in a preview), those ticked
     * `_remove` left out. A file refused for its field (too large, of a type the field does not
     * take, infected) is no answer: its refusal is the field's error (`refusals`), the rest of its
     * bytes flow past, and the page comes back with it, every other answer kept (API.md §11.1).
     */
    async function readPost(
      request: FastifyRequest,
      form: StoredForm,
      preview: boolean,
    ): Promise<{ fields: Fields; refusals: FieldError[]; taken: StoredFile[] }> {
      const refusals: FieldError[] = [];
      /** The files this post brought: thrown away when the body then fails (malformed, too large). */
      const taken: StoredFile[] = [];
      if (!request.isMultipart()) return { fields: formFields(request.body), refusals, taken };
      assertUploadSize(request, submissions.files.uploadMaxBytes);
      const fields = await readMultipartPost(
        request,
        bodyLimit,
        async (_request, fieldName, fileName, stream) => {
          const field = form.definition.fields.find((candidate) => candidate.id === fieldName);
          if (field?.type !== 'file') return undefined;
          if (preview) {
            stream.resume();
            return null;
          }
          // the file's own stream, which a refusal destroys; the part's is let flow on past it
          const source = stream.pipe(new PassThrough());
          stream.once('error', (error) => source.destroy(error));
          try {
            const file = await submissions.files.take(form, field, fileName, source);
            taken.push(file);
            return file.uploadId;
          } catch (error) {
            const refusal = refusalOf(error, field.id);
            if (!refusal) throw error;
            stream.unpipe(source);
            stream.resume();
            refusals.push(refusal);
            return null;
          }
        },
        submissions.files.uploadMaxBytes,
      ).catch(async (error: unknown) => {
        // API.md §12: nothing of a refused or failed submission is kept (a page refused for its
        // answers keeps its files, to be sent again with the mended answers: not this)
        if (taken.length > 0) await submissions.files.discard(taken).catch(() => undefined);
        throw error;
      });
      const removed = new Set([fields._remove].flat().filter((id): id is string => typeof id === 'string'));
      if (removed.size > 0) {
        for (const field of form.definition.fields) {
          if (field.type !== 'file' || fields[field.id] === undefined) continue;
          fields[field.id] = [fields[field.id]]
            .flat()
            .filter((id) => !(typeof id === 'string' && removed.has(id)));
        }
      }
      return { fields, refusals, taken };
    }

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
      if (!queryFlag(request, 'preview')) return undefined;
      const userId = await sessionFromCookie(request);
      if (userId === null) return undefined;
      const form = await forms(request.params.formId);
      if (!form || !(await mayPreview(userId, form, isMember))) return undefined;
      // never kept (sendPage's no-store), never indexed
      reply.header('x-robots-tag', 'noindex');
      return form;
    }

    /**
     * Analytics never fail nor hold up a page: the event is stored behind the answer (with the
     * others of the moment, `recordLater`); over its rate limit, or when storing fails, it is left
     * out (and logged).
     */
    async function record(
      form: StoredForm,
      type: EventType,
      sessionId: string,
      ip: string,
      log: FastifyBaseLogger,
    ) {
      try {
        await events.countPageEvent(ip);
        events.recordLater(form, type, sessionId, log);
      } catch (error) {
        log.warn({ err: error, formId: form.id, type }, 'the page could not record its analytics event');
      }
    }

    scope.get<{ Params: { formId: string }; Querystring: Record<string, string | string[]> }>(
      '/:formId',
      { schema: { hide: true } },
      async (request, reply) => {
        const preview = await previewed(request, reply);
        const stored = preview ?? (await liveForm(request.params.formId));
        // closed, answered from this browser, or locked: that page instead of the form (never in the owner's preview)
        const gate = preview ? undefined : await gates.gateOf(request, stored);
        if (gate) {
          const shown = shownForm(stored, pageLanguage(request, stored));
          const embedded = queryFlag(request, 'embed');
          return gate === 'password'
            ? pages.password(reply, shown, { embedded })
            : pages.closed(reply, shown, gate, { embedded });
        }
        const embedded = queryFlag(request, 'embed');
        // saved progress (API.md §15): a resume link, or the answers this browser saved
        const asked = firstText(request.query.resume);
        const resumeToken = preview ? undefined : (asked ?? cookiesOf(request)[RESUME_COOKIE]);
        if (resumeToken !== undefined) {
          const resumed = await submissions.progress.resume(stored, resumeToken);
          if (resumed) return resume(request, reply, stored, resumed, resumeToken, embedded);
          reply.clearCookie(RESUME_COOKIE, formCookieScope(stored, embedded, page.production));
          if (asked !== undefined)
            return pages.resumeGone(reply, shownForm(stored, pageLanguage(request, stored)), { embedded });
        }
        const sessionId = timeOrderedToken();
        // a HEAD (a link checker, a link preview) is no view, nor is the owner's preview
        if (request.method === 'GET' && !preview)
          await record(stored, 'view', sessionId, request.ip, request.log);
        // Hidden fields take their value from the query string (`?source=newsletter`): how links carry context.
        const answers: Fields = {};
        for (const field of stored.definition.fields) {
          const given = request.query[field.id];
          if (field.type === 'hidden' && given !== undefined)
            answers[field.id] = Array.isArray(given) ? given[0] : given;
        }
        const language = pageLanguage(request, stored);
        const state: PageState = {
          answers,
          sessionId,
          idempotencyKey: timeOrderedToken(),
          embedded,
          preview: preview !== undefined,
        };
        // what anyone gets (no answers from the link, not the preview) is kept (kept-pages.ts)
        if (!preview && Object.keys(answers).length === 0)
          return pages.firstPage(reply, stored, language, oneByOne(stored), state, (kept, gzip) => {
            if (request.method === 'GET') replays.remember(request, reply, stored, kept, gzip);
          });
        const form = shownForm(stored, language);
        const first = oneByOne(stored) ? firstQuestion(form.view, answers) : undefined;
        return first ? pages.question(reply, form, first, state) : pages.form(reply, form, state);
      },
    );

    scope.post<{ Params: { formId: string } }>(
      '/:formId',
      { schema: { hide: true } },
      async (request, reply) => {
        // a JSON body is the submit route's (API.md §6.1): a page takes a form's post
        if (isJsonBody(request))
          throw new Problem(
            415,
            'unsupported_media_type',
            `A form's page takes a form post (urlencoded or multipart): send JSON to POST /forms/${request.params.formId}/submit`,
          );
        const preview = await previewed(request, reply);
        // the owner's preview answers in pages, whatever the Accept (its refusals too: `answersInProblems`)
        if (preview) ANSWERED_IN_PAGES.add(request);
        const stored = preview ?? (await submissions.formFor(null, request.params.formId));
        // a client that asks for JSON gets the JSON submit's answers (API.md §12), not pages
        if (!preview && asksForJson(request)) return submitAsJson(request, reply, stored);
        if (!preview) {
          // the password page's post (urlencoded: it has no file); else the gates, before any file is taken
          const sent = request.isMultipart() ? {} : formFields(request.body);
          if (Object.hasOwn(sent, PASSWORD_CONTROL) && !isField(stored, PASSWORD_CONTROL))
            return gates.unlock(request, reply, stored, firstText(sent[PASSWORD_CONTROL]));
          const gate = await gates.gateOf(request, stored);
          if (gate) {
            const shown = shownForm(stored, pageLanguage(request, stored));
            const embedded = queryFlag(request, 'embed');
            return gate === 'password'
              ? pages.password(reply, shown, { embedded, status: 401 })
              : pages.closed(reply, shown, gate, { embedded, status: 403 });
          }
        }
        const { fields, refusals, taken } = await readPost(request, stored, preview !== undefined);
        const session = firstText(fields._session);
        const sessionId = session !== undefined && SESSION.test(session) ? session : timeOrderedToken();
        const key = firstText(fields._idempotency);
        // the first page posted is the start (counted once per session; later pages say it is counted)
        if (fields._started === undefined && !preview)
          await record(stored, 'start', sessionId, request.ip, request.log);
        // the answers saved so far (API.md §15): the page's own token, else this browser's
        const resumeToken = preview
          ? undefined
          : (firstText(fields._resume) ?? cookiesOf(request)[RESUME_COOKIE]);
        const post: Post = {
          form: shownForm(stored, pageLanguage(request, stored)),
          fields,
          answers: answersOf(stored, fields),
          sessionId,
          key,
          embedded: queryFlag(request, 'embed'),
          preview: preview !== undefined,
          resumeToken,
          taken,
        };
        const state: PageState = {
          answers: post.answers,
          uploads: await submissions.files.pageUploads(stored, post.answers),
          sessionId,
          idempotencyKey: key ?? timeOrderedToken(),
          started: true,
          embedded: post.embedded,
          preview: post.preview,
          resume: resumeToken,
        };
        // The page again, with what went wrong and every answer kept. 400, not 200: the post was
        // refused and nothing was stored, which is what the status says to anything that is not a
        // person (a test, a proxy's logs, a browser's devtools); browsers show the page alike.
        const refused = (errors: FieldError[], keySpent: boolean): PageState => ({
          ...state,
          errors,
          status: 400,
          idempotencyKey: keySpent ? timeOrderedToken() : state.idempotencyKey,
        });

        if (!oneByOne(stored)) {
          // a file refused: the page again, nothing submitted, with its refusal and the page's other errors
          if (refusals.length > 0) {
            const errors = withRefusals(stored, submissions.validatePage(stored, post.answers), refusals);
            return pages.form(reply, post.form, refused(errors, false));
          }
          return submitPost(request, reply, post, (errors, keySpent) =>
            pages.form(reply, post.form, refused(errors, keySpent)),
          );
        }
        // (a form that stores nothing offers no saving: a "save" posted to it anyway is a step like Next)
        if (firstText(fields._action) === 'save' && !preview && keepsProgress(stored)) {
          // drop-off (API.md §15, "from the hosted page's steps and the partials"): the question saved from
          const saving = { questionId: firstText(fields._question), action: 'save', answers: post.answers };
          await events.recordSteps(stored, sessionId, saving, 'saved', request.ip, request.log);
          return saveForLater(request, reply, post, saving.questionId);
        }
        const step = stepFrom(
          post.form.view,
          {
            questionId: firstText(fields._question),
            action: firstText(fields._action),
            answers: post.answers,
          },
          (answers) => withRefusals(stored, submissions.validatePage(stored, answers), refusals),
        );
        // drop-off (API.md §15): the question posted and the one it leads to; never fails the page
        if (!preview) {
          const posted = { questionId: firstText(fields._question), action: firstText(fields._action) };
          await events.recordSteps(
            stored,
            sessionId,
            { ...posted, answers: post.answers },
            step,
            request.ip,
            request.log,
          );
        }
        switch (step.to) {
          case 'form':
            return pages.form(reply, post.form, state);
          case 'question': {
            const { token: resume, notice } = await keepProgress(
              request,
              reply,
              post,
              step.question.id,
              step.errors,
            );
            return pages.question(
              reply,
              post.form,
              step.question,
              step.errors
                ? { ...state, resume, notice, errors: step.errors, status: 400 }
                : { ...state, resume, notice },
            );
          }
          case 'submit':
            return submitPost(request, reply, post, (errors, keySpent) => {
              const at = refusedAt(post.form.view, post.answers, step.from, errors);
              return pages.question(reply, post.form, at.question, refused(at.errors, keySpent));
            });
        }
      },
    );

    /**
     * A post that asks for JSON (API.md §12): answered like `POST /forms/{id}/submit`, 201 with
     * the submission's summary or a problem document. The whole form is judged at once whatever
     * its layout (a client of the API has no steps); read like a page's post otherwise: hidden
     * answers dropped, the page's controls (its session, idempotency key, resume token) taken
     * as the page takes them, the request's `Idempotency-Key` before the page's. Nothing of a
     * refused post is kept: the files it brought are thrown away.
     */
    async function submitAsJson(request: FastifyRequest, reply: FastifyReply, stored: StoredForm) {
      reply.headers(await submissions.countAttempt(null, request.ip));
      const idempotencyKey = requestedIdempotencyKey(request);
      await gates.assertMayPostJson(request, stored, { retry: idempotencyKey !== undefined });
      const { fields, refusals, taken } = await readPost(request, stored, false);
      const embedded = queryFlag(request, 'embed');
      let result: Awaited<ReturnType<typeof submissions.submitPostAsJson>>;
      try {
        // a file refused: every failing field listed, as a page lists them (API.md §1)
        if (refusals.length > 0)
          throw invalidSubmission(
            withRefusals(stored, submissions.validatePage(stored, answersOf(stored, fields)), refusals),
          );
        const session = firstText(fields._session);
        const resumeToken = firstText(fields._resume) ?? cookiesOf(request)[RESUME_COOKIE];
        const completes = await submissions.progress.partialId(stored, resumeToken);
        result = await submissions.submitPostAsJson({
          form: stored,
          fields,
          answers: answersOf(stored, fields),
          // none made up: the idempotency hash covers the session a post sends
          sessionId: session !== undefined && SESSION.test(session) ? session : undefined,
          idempotencyKey: idempotencyKey ?? firstText(fields._idempotency),
          remoteIp: request.ip,
          preview: false,
          language: pageLanguage(request, stored),
          completes,
          sameFiles: fileIdentities(taken),
        });
        await afterStored(reply, stored, { embedded, completed: completes !== undefined, taken });
      } catch (error) {
        // only what no submission took: a 503 may come after its submission was stored
        await submissions.files.discardUnused(taken);
        throw error;
      }
      request.log.info({ submissionId: result.id, embedded }, 'hosted form submitted (JSON)');
      return reply.status(201).header('cache-control', 'no-store').send(result);
    }

    /**
     * What follows a stored post, page or JSON: the files this post brought that no submission
     * took thrown away (the first result of its key again: the post was sent twice), the resume
     * cookie of the answers it completed cleared, and with `oncePer: "browser"` the cookie that
     * says this browser has answered.
     */
    async function afterStored(
      reply: FastifyReply,
      form: StoredForm,
      { embedded, completed, taken }: { embedded: boolean; completed: boolean; taken: StoredFile[] },
    ) {
      await submissions.files.discardUnused(taken);
      if (completed) reply.clearCookie(RESUME_COOKIE, formCookieScope(form, embedded, page.production));
      if (form.definition.access?.oncePer === 'browser') gates.rememberAnswered(reply, form, embedded);
    }

    /**
     * Submits a post's answers: the thank-you page or the redirect; a refusal the respondent can
     * mend is `refused` (the page again, with its errors; `keySpent`: under a new idempotency key).
     */
    async function submitPost(
      request: FastifyRequest,
      reply: FastifyReply,
      { form, fields, answers, sessionId, key, embedded, preview, resumeToken, taken }: Post,
      refused: (errors: FieldError[], keySpent: boolean) => FastifyReply,
    ) {
      // the answers saved so far (API.md §15) become this submission, under the partial's id
      const completes = preview ? undefined : await submissions.progress.partialId(form.stored, resumeToken);
      const result = await submissions.submitPost({
        completes,
        form: form.stored,
        fields,
        answers,
        sessionId,
        idempotencyKey: key,
        remoteIp: request.ip,
        preview,
        language: form.view.language,
        sameFiles: fileIdentities(taken),
      });
      reply.headers(result.headers);
      switch (result.outcome) {
        case 'previewed':
          return pages.thankYou(reply, form, { embedded, preview: true });
        case 'invalid':
          return refused(result.errors, false);
        case 'captcha-undone':
          return refused([captchaUndone(form.words)], false);
        case 'sent-already':
          // stored once already (Back after the thank-you page, answers changed): a new send is a new response
          return refused([sentAlready(form.words)], true);
        case 'spam':
          // The CAPTCHA's own verdict (a token expired or failed) is the respondent's to mend, on
          // the form. Any other (the honeypot, a rule) is told in words that name no mechanism.
          if (result.source === 'captcha') return refused([captchaFailed(form.words)], true);
          throw new Problem(400, 'spam_detected', spamRefused(form.words));
        case 'closed':
          return pages.closed(reply, form, result.reason, { embedded, status: 403 });
        case 'already-submitted':
          return pages.closed(reply, form, 'address-used', { embedded, status: 409 });
        case 'stored':
          break;
      }
      const { submissionId, redirect } = result;
      await afterStored(reply, form.stored, { embedded, completed: resumeToken !== undefined, taken });
      request.log.info({ submissionId, embedded }, 'hosted form submitted');
      reply.header('cache-control', 'no-store');
      // The page's script posts by fetch, which may not follow a redirect to another origin:
      // it is told where to go instead, and goes there itself.
      if (redirect && request.headers['x-intake-page'] === '1') {
        // embedded, the parent page hears of the submission before it leaves (frame.ts)
        if (embedded) reply.header('x-intake-submission', submissionId);
        return reply.code(204).header('x-intake-redirect', redirect).send();
      }
      if (redirect) return reply.redirect(redirect, 303);
      return pages.thankYou(reply, form, { embedded, submissionId: embedded ? submissionId : undefined });
    }
  };
}

/**
 * The language of a form's page (API.md §13): `?lang=` (which every page's address keeps) when
 * the form has it, else the best match of `Accept-Language`, else the form's own; remembered for
 * the scope's error pages.
 */
function pageLanguage(request: FastifyRequest, form: StoredForm): string {
  const language = requestedLanguageOf(form.definition, request);
  PAGE_LANGUAGES.set(request, language);
  return language;
}

/** Posts answered in pages though they ask for JSON: the owner's preview. */
const ANSWERED_IN_PAGES = new WeakSet<FastifyRequest>();

/**
 * Whether a request of the /f scope is answered with problem documents rather than pages when it
 * fails (the scope's error handler, web/pages.tsx): a post that asks for JSON, but the preview.
 */
export const answersInProblems = (request: FastifyRequest): boolean =>
  asksForJson(request) && !ANSWERED_IN_PAGES.has(request);

/** A page's post, read. */
interface Post {
  form: ShownForm;
  /** Every name posted (controls included). */
  fields: Fields;
  /** The answers to the form's fields, parsed (form-posts.ts). */
  answers: Fields;
  sessionId: string;
  key: string | undefined;
  embedded: boolean;
  /** The owner's preview: validated, never stored. */
  preview: boolean;
  /** The resume token of the answers saved so far (API.md §15), from the page or this browser's cookie. */
  resumeToken: string | undefined;
  /** The files this post brought (multipart), as uploads. */
  taken: StoredFile[];
}

/** A file's refusal for `fieldId` (400 validation_failed naming the field), else undefined. */
function refusalOf(error: unknown, fieldId: string): FieldError | undefined {
  if (!(error instanceof Problem) || error.status !== 400 || error.code !== 'validation_failed')
    return undefined;
  return error.options.errors?.find((found) => found.field === fieldId);
}

/**
 * A page's errors with each refused file's own in its field's place, in the form's order: the
 * file refused is no answer, and "Answer this question" would not say why.
 */
function withRefusals(form: StoredForm, errors: readonly FieldError[], refusals: readonly FieldError[]) {
  if (refusals.length === 0) return [...errors];
  const refused = new Set(refusals.map((refusal) => refusal.field));
  const order = (error: FieldError) => form.definition.fields.findIndex((field) => field.id === error.field);
  return [...errors.filter((error) => !refused.has(error.field)), ...refusals].sort(
    (a, b) => order(a) - order(b),
  );
}

const isField = (form: StoredForm, id: string): boolean =>
  form.definition.fields.some((field) => field.id === id);

const oneByOne = (form: StoredForm) => form.definition.ui.layout !== 'classic';
