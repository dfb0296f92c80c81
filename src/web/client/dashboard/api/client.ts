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

let csrfToken: string | undefined;
/** The session's CSRF token (log-in, sign-up, /auth/me), sent with every change. */
export const setCsrfToken = (token: string | undefined): void => {
  csrfToken = token;
};

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
api.use({
  onRequest({ request }) {
    if (csrfToken && request.method !== 'GET' && request.method !== 'HEAD')
      request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
});

/** Called when an answer says the session is gone (401): the app goes to log-in. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (callback: () => void): void => {
  onSignedOut = callback;
};

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
    onSignedOut();
  throw new ApiError(response.status, problem.code, message, problem.errors ?? []);
}
