import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

/**
 * The dashboard's one way to the HTTP API (API.md §11.3: the same API everyone else calls).
 * Typed by schema.d.ts, which `npm run api-types` makes from the route schemas' OpenAPI
 * document: a request or answer the routes do not describe does not type-check. The session
 * is the HttpOnly cookie; every change carries the CSRF token log-in and /auth/me hand out.
 */

/** One failing member of a request, as a problem's `errors[]` names it. */
export interface FieldProblem {
  field: string;
  code?: string;
  message: string;
}

/** A refused call, in words for a person, with the members it names. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly errors: readonly FieldProblem[] = [],
  ) {
    super(message);
  }

  /** The message for one member of the body (`email`), if the API named it (`email`, `body.email`). */
  about(member: string): string | undefined {
    return this.errors.find((error) => error.field === member || error.field.endsWith(`.${member}`))?.message;
  }
}

/** What was thrown, as an ApiError (a bug's error becomes one with its words). */
export const apiErrorOf = (caught: unknown): ApiError =>
  caught instanceof ApiError ? caught : new ApiError(0, undefined, String(caught));

/** Who this tab is signed in as, and that session's CSRF token, sent with every change. */
let session: { userId: string; csrfToken: string | undefined } | undefined;
/** After log-in, sign-up or GET /auth/me (undefined after log-out). */
export const setSession = (signedIn: { user: { id: string }; csrfToken?: string } | undefined): void => {
  session = signedIn && { userId: signedIn.user.id, csrfToken: signedIn.csrfToken };
};

/**
 * The workspace every call acts in (API.md §14), sent as `X-Intake-Workspace` on each of them;
 * none: the personal one, as the server takes it (a person alone never sends the header).
 */
let workspaceId: string | undefined;
/**
 * Calls about the person rather than a workspace: their list of workspaces (read without one, so a
 * workspace they were removed from cannot lock them out of choosing another), making one, and
 * accepting an invitation.
 */
const PERSONAL_PATHS = new Set(['/workspaces', '/invitations/accept']);
export const setWorkspaceHeader = (id: string | undefined): void => {
  workspaceId = id;
};

/**
 * An address of the API the browser opens by itself (an image, a download, a CSV export), which
 * no header goes with: the workspace is said as `?workspace=` instead (API.md §14), when not the personal one.
 */
export function inWorkspace(href: string): string {
  if (!workspaceId) return href;
  return `${href}${href.includes('?') ? '&' : '?'}workspace=${encodeURIComponent(workspaceId)}`;
}

/**
 * Called when a read in a shared workspace is refused (403): the person may have been removed
 * from it meanwhile (API.md §14: from their next request on), which the app then checks.
 */
let onWorkspaceRefused: () => void = () => {};
export const whenWorkspaceRefused = (callback: () => void): void => {
  onWorkspaceRefused = callback;
};

/**
 * The `code` of a refusal's problem document, read from a copy (the caller reads the answer too).
 * A read in a shared workspace refused as `forbidden` may mean the person was removed; one
 * refused for what it asked (`form_not_in_environment`, the inbox's guess at a form's
 * environment) says nothing about membership, and is not checked.
 */
async function refusalCode(response: Response): Promise<string | undefined> {
  try {
    const problem: unknown = await response.clone().json();
    return typeof problem === 'object' &&
      problem !== null &&
      'code' in problem &&
      typeof problem.code === 'string'
      ? problem.code
      : undefined;
  } catch {
    return undefined;
  }
}

/** Why this tab is no longer signed in: the session ended, or the cookie is now another user's. */
export type SignedOutReason = 'ended' | 'another-user';
/** Called when an answer says the session is gone (401), or is now another user's: the app goes to log-in. */
let onSignedOut: (reason: SignedOutReason) => void = () => {};
export const whenSignedOut = (callback: (reason: SignedOutReason) => void): void => {
  onSignedOut = callback;
};

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
/** Each change as sent, kept to send once more with a fresh CSRF token (see onResponse). */
const sent = new WeakMap<Request, Request>();
const changes = (method: string) => method !== 'GET' && method !== 'HEAD';
api.use({
  onRequest({ request }) {
    if (workspaceId && !PERSONAL_PATHS.has(new URL(request.url).pathname))
      request.headers.set('x-intake-workspace', workspaceId);
    if (!changes(request.method)) return request;
    if (session?.csrfToken) request.headers.set('x-csrf-token', session.csrfToken);
    sent.set(request, request.clone());
    return request;
  },
  /**
   * A change refused 403 may carry a stale CSRF token: signing in again in another tab made a new
   * session (the cookie is shared, the token is this tab's). The session's token is asked for
   * again, and the change sent once more with it, but only when the cookie's session is still
   * this tab's user's: after a log-in as someone else (or a log-out) elsewhere, the change is
   * not made in another account's name; the person is sent to log-in. A second refusal stands.
   */
  async onResponse({ request, response }) {
    if (
      response.status === 403 &&
      request.headers.has('x-intake-workspace') &&
      !changes(request.method) &&
      (await refusalCode(response)) === 'forbidden'
    )
      onWorkspaceRefused();
    const again = sent.get(request);
    if (response.status !== 403 || !again || !session) return response;
    let now: { user?: { id: string }; csrfToken?: string } | undefined;
    try {
      const me = await fetch(`${location.origin}/auth/me`, { credentials: 'same-origin' });
      now = me.ok ? await me.json() : undefined;
    } catch {
      // no answer about the session: the refusal stands as it came (nothing is re-sent)
      return response;
    }
    if (now?.user?.id !== session.userId) {
      session = undefined;
      onSignedOut(now?.user ? 'another-user' : 'ended');
      return response;
    }
    const fresh = now.csrfToken;
    if (!fresh || fresh === again.headers.get('x-csrf-token')) return response;
    session.csrfToken = fresh;
    again.headers.set('x-csrf-token', fresh);
    return fetch(again);
  },
});

/** The data of a call that succeeded; otherwise an ApiError, from its problem document. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'network', 'Intake could not be reached. Check your connection, then try again.');
  }
  const { response } = result;
  if (response.ok) return result.data as T;
  const problem = (result.error ?? {}) as {
    code?: string;
    title?: string;
    detail?: string;
    errors?: FieldProblem[];
  };
  const message = problem.detail ?? problem.title ?? `Intake answered ${response.status}.`;
  if (response.status === 401 && problem.code === 'unauthorized' && !response.url.includes('/auth/'))
    onSignedOut('ended');
  throw new ApiError(response.status, problem.code, message, problem.errors ?? []);
}
