import type { FastifyRequest } from 'fastify';
import type { StoredForm } from '../../features/forms/repo.js';
import { firstText } from '../../features/submissions/form-posts.js';

/** What the hosted pages read of a request, and the scope of the cookies they set. */

/** The request's cookies (the scope reads no session from them: only the response controls' and saved progress's own). */
export const cookiesOf = (request: FastifyRequest): Record<string, string | undefined> =>
  request.headers.cookie === undefined ? {} : request.server.parseCookie(request.headers.cookie);

/** `?name=1` in the address (`embed`, `preview`). */
export const queryFlag = (request: FastifyRequest, name: string): boolean =>
  firstText((request.query as Record<string, unknown> | undefined)?.[name]) === '1';

/**
 * A hosted page's cookie scope: the form's pages only, never read by a script. At the form's
 * own address, `SameSite=Lax`. Embedded (a frame on another site, where a Lax cookie is never
 * sent) and served over HTTPS (production), `SameSite=None; Partitioned`: kept apart for each
 * site that embeds the form (CHIPS), so another site's page never carries it.
 */
export function formCookieScope(form: StoredForm, embedded: boolean, production: boolean) {
  const path = `/f/${encodeURIComponent(form.id)}`;
  if (embedded && production)
    return { path, httpOnly: true, sameSite: 'none' as const, secure: true, partitioned: true };
  return { path, httpOnly: true, sameSite: 'lax' as const, secure: production };
}
