import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredForm } from '../../features/forms/repo.js';
import { languagesOf } from '../../features/forms/translations.js';
import { firstText } from '../../features/submissions/form-posts.js';
import {
  keepsProgress,
  PARTIAL_TTL_DAYS,
  type Resumed,
  type SavedProgress,
} from '../../features/submissions/progress.js';
import { timeOrderedToken } from '../../platform/ids.js';
import { Problem } from '../../platform/problem.js';
import type { FieldError } from '../../shared/form.js';
import { type Answers, isAnswered, visibleAnswers } from '../../shared/logic.js';
import { resumeAt } from '../../shared/walk.js';
import type { formPages, ShownForm } from './form-pages.js';
import { shownForm } from './form-pages.js';
import { spamRefused } from './messages.js';
import { PAGE_LANGUAGES } from './page-language.js';
import { formCookieScope } from './page-request.js';

/**
 * Saved progress on the hosted page (API.md §15), for routes.tsx: every page a respondent posts
 * keeps the answers so far (`keepProgress`, never failing the page: the answers ride along in
 * the page all the same), "Save and continue later" keeps them and shows the link
 * (`saveForLater`), and a resume link or this browser's cookie opens the form again at the
 * first unanswered question (`resume`). The token rides in the page's `_resume` and in a
 * cookie on the form's path; the submission that completes the answers takes the partial's id.
 */

/** The cookie that keeps this browser's saved answers (its resume token), on the form's path alone. */
export const RESUME_COOKIE = 'intake_resume';
const RESUME_TTL_S = PARTIAL_TTL_DAYS * 24 * 60 * 60;

/** What of a page's post saving needs. */
export interface ProgressPost {
  form: ShownForm;
  /** Every name the page posted: the honeypot's among them. */
  fields: Readonly<Record<string, unknown>>;
  answers: Answers;
  sessionId: string;
  embedded: boolean;
  preview: boolean;
  resumeToken: string | undefined;
}

export interface SavedProgressDependencies {
  pages: ReturnType<typeof formPages>;
  progress: SavedProgress;
  production: boolean;
  /** Counts the view of a resumed page, in its session (never failing the page). */
  recordView: (form: StoredForm, sessionId: string, request: FastifyRequest) => Promise<void>;
  /** The language a page is asked in (`?lang=`, `Accept-Language`, the form's). */
  pageLanguage: (request: FastifyRequest, form: StoredForm) => string;
}

export function savedProgressPages(deps: SavedProgressDependencies) {
  const { pages, progress } = deps;

  const keepCookie = (reply: FastifyReply, form: StoredForm, embedded: boolean, token: string) =>
    reply.setCookie(RESUME_COOKIE, token, {
      ...formCookieScope(form, embedded, deps.production),
      maxAge: RESUME_TTL_S,
    });

  /** A post whose honeypot is filled in is a robot's: nothing of it is kept. */
  const byRobot = (post: ProgressPost) => {
    const honeypot = post.form.stored.definition.spamProtection?.honeypot?.field;
    return honeypot !== undefined && isAnswered(post.fields[honeypot]);
  };

  /** The answers a post keeps: those the logic shows, less any a refused step found wrong. */
  function answersToKeep(post: ProgressPost, errors: readonly FieldError[] | undefined): Answers {
    const answers = { ...visibleAnswers(post.form.stored.definition.logic, post.answers).answers };
    for (const error of errors ?? []) delete answers[error.field];
    return answers;
  }

  return {
    /**
     * A page posted on the way (Next, Back, a refused step): its answers so far saved, the token
     * kept in the page and the cookie. A save that fails is logged and the page goes on: its
     * answers are in the page, and the next post saves them.
     */
    async keepProgress(
      request: FastifyRequest,
      reply: FastifyReply,
      post: ProgressPost,
      questionId: string,
      errors?: readonly FieldError[],
    ): Promise<{ token: string | undefined; notice?: string }> {
      if (post.preview || byRobot(post)) return { token: post.resumeToken };
      if (!keepsProgress(post.form.stored)) return { token: undefined };
      try {
        const saved = await progress.save({
          remoteIp: request.ip,
          form: post.form.stored,
          answers: answersToKeep(post, errors),
          sessionId: post.sessionId,
          language: post.form.view.language,
          questionId,
          token: post.resumeToken,
        });
        keepCookie(reply, post.form.stored, post.embedded, saved.token);
        // the link was finished on another device: going on makes a new response, said before the last page
        return saved.sentAlready
          ? { token: saved.token, notice: post.form.words.say('sentAlready') }
          : { token: saved.token };
      } catch (error) {
        // past the limit of new partials, or the storage unavailable: the answers ride in the page
        const limited = error instanceof Problem && error.status === 429;
        request.log[limited ? 'info' : 'warn'](
          { err: error, formId: post.form.stored.id },
          'the answers so far could not be saved; the page goes on without',
        );
        return { token: post.resumeToken };
      }
    },

    /** "Save and continue later": the answers kept (a failure is the error page), then the link, mailed when it can be. */
    async saveForLater(
      request: FastifyRequest,
      reply: FastifyReply,
      post: ProgressPost,
      questionId: string | undefined,
    ) {
      const stored = post.form.stored;
      if (byRobot(post)) throw new Problem(400, 'spam_detected', spamRefused(post.form.words));
      const answers = answersToKeep(post, undefined);
      const saved = await progress.save({
        remoteIp: request.ip,
        form: stored,
        answers,
        sessionId: post.sessionId,
        language: post.form.view.language,
        questionId,
        token: post.resumeToken,
      });
      keepCookie(reply, stored, post.embedded, saved.token);
      const link = progress.linkFor(request, stored, saved.token);
      let mailedTo: string | undefined;
      if (link.absolute) {
        try {
          mailedTo = await progress.mailLink(stored, answers, link.href, post.form.view.language);
        } catch (error) {
          // the answers are saved and the link is on the page: a mail that could not be queued is left out
          request.log.warn({ err: error, formId: stored.id }, 'the resume link could not be mailed');
        }
      }
      return pages.saved(reply, post.form, {
        embedded: post.embedded,
        link: link.href,
        mailedTo,
        notice: saved.sentAlready ? post.form.words.say('sentAlready') : undefined,
      });
    },

    /**
     * A form opened with saved answers: in the language they were given in (unless the address
     * asks for another), at the first question not answered, in the session they were given in.
     */
    async resume(
      request: FastifyRequest,
      reply: FastifyReply,
      stored: StoredForm,
      resumed: Resumed,
      token: string,
      embedded: boolean,
    ) {
      const asked = firstText((request.query as Record<string, unknown>).lang) !== undefined;
      let language = deps.pageLanguage(request, stored);
      if (!asked && resumed.language && languagesOf(stored.definition).includes(resumed.language)) {
        language = resumed.language;
        PAGE_LANGUAGES.set(request, language);
      }
      const form = shownForm(stored, language);
      const sessionId = resumed.sessionId ?? timeOrderedToken();
      if (request.method === 'GET') await deps.recordView(stored, sessionId, request);
      keepCookie(reply, stored, embedded, token);
      const state = {
        answers: resumed.answers,
        sessionId,
        idempotencyKey: timeOrderedToken(),
        started: true,
        embedded,
        resume: token,
        notice: resumed.dropped > 0 ? form.words.say('resumeChanged') : undefined,
      };
      const question =
        stored.definition.ui.layout === 'classic' ? undefined : resumeAt(form.view, state.answers);
      return question ? pages.question(reply, form, question, state) : pages.form(reply, form, state);
    },
  };
}
