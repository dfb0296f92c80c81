import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredForm } from '../../features/forms/repo.js';
import {
  formClosed,
  formPasswordOf,
  type ResponseControls,
  UNLOCK_TTL_S,
} from '../../features/submissions/controls.js';
import { Problem } from '../../platform/problem.js';
import type { ClosedPageReason } from '../components/form/access-pages.js';
import { type formPages, shownForm } from './form-pages.js';
import { cookiesOf, formCookieScope, queryFlag } from './page-request.js';

/**
 * Response controls on the hosted page (API.md §15), for routes.tsx: what the page shows instead
 * of the form (closed, answered from this browser, locked by a password), the password page's
 * post, and the cookie that remembers an answer (`oncePer: "browser"`). Each cookie is signed
 * (controls.ts) and lives on its form's path alone.
 */

const ANSWERED_COOKIE = 'intake_answered';
const UNLOCK_COOKIE = 'intake_unlocked';
/** How long a browser remembers it answered a form with `oncePer: "browser"` (browsers cap cookies at 400 days). */
const ANSWERED_TTL_S = 400 * 24 * 60 * 60;

export interface AccessGateDependencies {
  controls: ResponseControls;
  pages: ReturnType<typeof formPages>;
  production: boolean;
  /** The language a page is asked in (`?lang=`, `Accept-Language`, the form's). */
  pageLanguage: (request: FastifyRequest, form: StoredForm) => string;
}

export function accessGate({ controls, pages, production, pageLanguage }: AccessGateDependencies) {
  /**
   * What the page shows instead of the form (API.md §15): the closed page (by the clock or the
   * count), the one after an answer from this browser (`oncePer: "browser"`, a signed cookie),
   * or the password page until the form is unlocked in this browser (a signed cookie).
   */
  async function gateOf(
    request: FastifyRequest,
    form: StoredForm,
  ): Promise<ClosedPageReason | 'password' | undefined> {
    if (!form.definition.access) return undefined;
    const reason = await controls.closedReason(form);
    if (reason) return reason;
    const door = browserDoor(request, form);
    return door === 'locked' ? 'password' : door;
  }

  /**
   * The doors this browser's cookies open or shut, after the clock and the count: it answered a
   * form that takes one answer per browser, or it has not unlocked a form with a password.
   */
  function browserDoor(request: FastifyRequest, form: StoredForm): 'answered' | 'locked' | undefined {
    const cookies = cookiesOf(request);
    if (
      form.definition.access?.oncePer === 'browser' &&
      controls.isAnswered(form.id, cookies[ANSWERED_COOKIE])
    )
      return 'answered';
    if (!controls.isUnlocked(form, cookies[UNLOCK_COOKIE])) return 'locked';
    return undefined;
  }

  /**
   * The password page's post: the right password unlocks the form in this browser (a signed
   * HttpOnly cookie on the form's path) and sends it to the form; a wrong one is the page again
   * (401), and so are too many wrong ones (429, the guesses rate-limited per form and address).
   */
  async function unlock(
    request: FastifyRequest,
    reply: FastifyReply,
    stored: StoredForm,
    password: string | undefined,
  ) {
    const shown = shownForm(stored, pageLanguage(request, stored));
    const embedded = queryFlag(request, 'embed');
    const again = (status: number, error: Parameters<typeof shown.words.say>[0]) =>
      pages.password(reply, shown, { embedded, status, error: shown.words.say(error) });
    if (!stored.definition.access?.passwordHash) return reply.redirect(request.url, 303);
    if (password === undefined || password === '') return again(400, 'passwordMissing');
    let matches: boolean;
    try {
      matches = await controls.passwordMatches(stored, password, request.ip);
    } catch (error) {
      if (!(error instanceof Problem) || error.status !== 429) throw error;
      reply.headers(error.options.headers ?? {});
      return again(429, 'passwordTooMany');
    }
    if (!matches) return again(401, 'passwordWrong');
    reply.setCookie(UNLOCK_COOKIE, controls.unlockCookie(stored), {
      ...formCookieScope(stored, embedded, production),
      maxAge: UNLOCK_TTL_S,
    });
    // the form's own address (its embed and language kept), read again: a reload posts nothing
    return reply.redirect(request.url, 303);
  }

  /**
   * The same doors for a post that asks for JSON (API.md §12), as problems: closed by the clock or
   * the count 403 form_closed (the submit path judges again, exactly); answered from this browser
   * (`oncePer: "browser"`) 409 already_submitted; a password form takes this browser's unlocking,
   * else `X-Form-Password` as the API does (401).
   */
  async function assertMayPostJson(
    request: FastifyRequest,
    form: StoredForm,
    { retry }: { retry: boolean },
  ): Promise<void> {
    if (!form.definition.access) return;
    // before any file of the post is read (the submit path would refuse it only after); not for a
    // retry under an Idempotency-Key, whose first result stands even once the form has closed
    const reason = retry ? undefined : await controls.closedReason(form, { trustRoom: true });
    if (reason) throw formClosed(form, reason);
    const door = browserDoor(request, form);
    if (door === 'answered')
      throw new Problem(
        409,
        'already_submitted',
        `The form ${form.id} takes one submission per browser, and this browser has sent one`,
      );
    if (door === 'locked')
      await controls.assertPassword(form, formPasswordOf(request.headers['x-form-password']), request.ip);
  }

  /** `oncePer: "browser"`: this browser has answered; the form's page says so from now on. */
  function rememberAnswered(reply: FastifyReply, form: StoredForm, embedded: boolean) {
    reply.setCookie(ANSWERED_COOKIE, controls.answeredCookie(form.id), {
      ...formCookieScope(form, embedded, production),
      maxAge: ANSWERED_TTL_S,
    });
  }

  return { gateOf, assertMayPostJson, unlock, rememberAnswered };
}
