// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The API client's answer to a change refused for a stale CSRF token (API.md §11.3): the token
 * is asked for again and the change re-sent, but only while the cookie still holds a session of
 * the same user. Another user's session (a log-in as someone else in another tab) or none at
 * all sends the person to log-in, and the change is not made under the wrong account.
 */

type Client = typeof import('./client.js');

const ME = { id: 'usr_me', email: 'me@example.com', createdAt: '2026-01-01T00:00:00.000Z' };
const OTHER = { id: 'usr_other', email: 'other@example.com', createdAt: '2026-01-01T00:00:00.000Z' };
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const staleToken = () =>
  json(403, {
    type: 'about:blank',
    title: 'Forbidden',
    status: 403,
    code: 'forbidden',
    detail: 'stale token',
  });

/** What the server saw: each request's method, path and CSRF header. */
interface Seen {
  method: string;
  path: string;
  csrf: string | null;
}

/** The server of the test at hand (the global fetch forwards to it: openapi-fetch keeps the fetch it was made with). */
let server: (request: Request) => Promise<Response> = async () => {
  throw new Error('no server');
};

/** A server answering each request with the next of `answers` (by path); every request recorded. */
function serve(answers: Record<string, Array<() => Response>>): Seen[] {
  const seen: Seen[] = [];
  server = async (request) => {
    const path = new URL(request.url).pathname;
    seen.push({ method: request.method, path, csrf: request.headers.get('x-csrf-token') });
    const next = answers[path]?.shift();
    if (!next) throw new Error(`no answer left for ${request.method} ${path}`);
    return next();
  };
  return seen;
}

let client: Client;
beforeAll(async () => {
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    server(input instanceof Request ? input : new Request(String(input), init)),
  );
  client = await import('./client.js');
});
afterEach(() => {
  client.whenWorkspaceRefused(() => undefined);
  client.setWorkspaceHeader(undefined);
  client.setSession(undefined);
  client.whenSignedOut(() => undefined);
});

const createKey = () =>
  client.ok(client.api.POST('/keys/secrets', { params: { query: { environment: 'development' } } }));
const created = { id: 'key_1', kind: 'secret', key: 'sk_test_x', last4: 'xxxx', createdAt: ME.createdAt };

describe('a change refused for a stale CSRF token', () => {
  it('is sent once more with the fresh token when the session is still the same user’s', async () => {
    const seen = serve({
      '/keys/secrets': [staleToken, () => json(201, created)],
      '/auth/me': [() => json(200, { user: ME, csrfToken: 'fresh' })],
    });
    client.setSession({ user: ME, csrfToken: 'stale' });
    await expect(createKey()).resolves.toMatchObject({ key: 'sk_test_x' });
    expect(seen.map(({ method, path, csrf }) => `${method} ${path} ${csrf}`)).toEqual([
      'POST /keys/secrets stale',
      'GET /auth/me null',
      'POST /keys/secrets fresh',
    ]);
  });

  it('is not sent again when the cookie now holds another user’s session: the person is sent to log-in', async () => {
    const seen = serve({
      '/keys/secrets': [staleToken, () => json(201, created)],
      '/auth/me': [() => json(200, { user: OTHER, csrfToken: 'theirs' })],
    });
    const signedOut = vi.fn();
    client.whenSignedOut(signedOut);
    client.setSession({ user: ME, csrfToken: 'stale' });
    await expect(createKey()).rejects.toMatchObject({ status: 403 });
    expect(seen.filter((request) => request.path === '/keys/secrets')).toHaveLength(1);
    expect(signedOut).toHaveBeenCalledExactlyOnceWith('another-user');
  });

  it('is not sent again when the cookie holds no session any more: the person is sent to log-in', async () => {
    const seen = serve({
      '/keys/secrets': [staleToken],
      '/auth/me': [
        () => json(401, { type: 'about:blank', title: 'Unauthorized', status: 401, code: 'unauthorized' }),
      ],
    });
    const signedOut = vi.fn();
    client.whenSignedOut(signedOut);
    client.setSession({ user: ME, csrfToken: 'stale' });
    await expect(createKey()).rejects.toMatchObject({ status: 403 });
    expect(seen.filter((request) => request.path === '/keys/secrets')).toHaveLength(1);
    expect(signedOut).toHaveBeenCalledExactlyOnceWith('ended');
  });

  it('stands when the token asked for again is the one already sent (a refusal for another reason)', async () => {
    const seen = serve({
      '/keys/secrets': [staleToken],
      '/auth/me': [() => json(200, { user: ME, csrfToken: 'same' })],
    });
    client.setSession({ user: ME, csrfToken: 'same' });
    await expect(createKey()).rejects.toMatchObject({ status: 403 });
    expect(seen.filter((request) => request.path === '/keys/secrets')).toHaveLength(1);
  });

  it('leaves reads alone: a GET refused 403 is not asked again', async () => {
    const seen = serve({ '/keys': [staleToken] });
    client.setSession({ user: ME, csrfToken: 'stale' });
    await expect(
      client.ok(client.api.GET('/keys', { params: { query: { environment: 'development' } } })),
    ).rejects.toMatchObject({ status: 403 });
    expect(seen).toHaveLength(1);
  });
});

describe('the workspace chosen', () => {
  it('goes with every call, reads and changes alike, and with none chosen no header is sent', async () => {
    const workspaces: Array<string | null> = [];
    server = async (request) => {
      workspaces.push(request.headers.get('x-intake-workspace'));
      return request.method === 'GET' ? json(200, { data: [], nextCursor: null }) : json(201, created);
    };
    const listKeys = () =>
      client.ok(client.api.GET('/keys', { params: { query: { environment: 'development' } } }));
    await listKeys();
    client.setWorkspaceHeader('wsp_team');
    await listKeys();
    await createKey();
    client.setWorkspaceHeader(undefined);
    await listKeys();
    expect(workspaces).toEqual([null, 'wsp_team', 'wsp_team', null]);
  });

  it('is said in the query of what the browser opens by itself (no header goes with an image or a download)', () => {
    expect(client.inWorkspace('/forms/frm_1/qr.svg')).toBe('/forms/frm_1/qr.svg');
    client.setWorkspaceHeader('wsp_team');
    expect(client.inWorkspace('/forms/frm_1/qr.svg')).toBe('/forms/frm_1/qr.svg?workspace=wsp_team');
    expect(client.inWorkspace('/responses?format=csv')).toBe('/responses?format=csv&workspace=wsp_team');
  });

  it('has a read refused in a shared workspace checked (the person may have been removed), and nothing else', async () => {
    const refused = vi.fn();
    client.whenWorkspaceRefused(refused);
    server = async () => staleToken();
    const listKeys = () =>
      client
        .ok(client.api.GET('/keys', { params: { query: { environment: 'development' } } }))
        .catch(() => undefined);
    await listKeys();
    expect(refused).not.toHaveBeenCalled();
    client.setWorkspaceHeader('wsp_team');
    await listKeys();
    expect(refused).toHaveBeenCalledTimes(1);
    // refused for what it asked, not for who asks: membership is not in question
    server = async () =>
      json(403, {
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        code: 'form_not_in_environment',
        detail: 'The form frm_1 is in production',
      });
    const answer = await client
      .ok(
        client.api.GET('/responses', { params: { query: { form_id: 'frm_1', environment: 'development' } } }),
      )
      .catch((error: unknown) => error);
    expect(answer).toMatchObject({ status: 403, code: 'form_not_in_environment' });
    expect(refused).toHaveBeenCalledTimes(1);
  });
});
