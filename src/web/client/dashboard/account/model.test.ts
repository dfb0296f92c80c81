// @vitest-environment happy-dom
import { beforeAll, describe, expect, it, vi } from 'vitest';

/** What the account's views read: every environment's keys and webhooks (every page of them), and a key deleted by its kind. */

type Model = typeof import('./model.js');

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const key = (id: string, kind: 'secret' | 'publishable') => ({
  id,
  kind,
  last4: id.slice(-4),
  createdAt: '2026-11-01T00:00:00.000Z',
  lastUsedAt: null,
});
const hook = (id: string, environment: string) => ({
  id,
  formId: 'frm_1',
  environment,
  event: 'response.created',
  url: `https://hooks.example.com/${id}`,
  format: 'legacy',
  enabled: true,
  hasSecret: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

/** The requests made, as "METHOD /path?query". */
const seen: string[] = [];
function answer(request: Request): Response {
  const url = new URL(request.url);
  seen.push(`${request.method} ${url.pathname}${url.search}`);
  const environment = url.searchParams.get('environment') ?? '';
  if (url.pathname === '/environments')
    return json({
      data: [{ name: 'development' }, { name: 'production' }].map((entry) => ({
        ...entry,
        isDefault: true,
        createdAt: '',
      })),
    });
  if (url.pathname === '/keys')
    return json({ data: environment === 'production' ? [key('key_prod', 'secret')] : [] });
  if (url.pathname === '/webhooks') {
    // development's webhooks come in two pages
    if (environment !== 'development') return json({ data: [], nextCursor: null });
    return url.searchParams.get('cursor')
      ? json({ data: [hook('whk_2', environment)], nextCursor: null })
      : json({ data: [hook('whk_1', environment)], nextCursor: 'next' });
  }
  if (request.method === 'DELETE') return new Response(null, { status: 204 });
  throw new Error(`unexpected ${request.method} ${url.pathname}`);
}

let model: Model;
beforeAll(async () => {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
    answer(input instanceof Request ? input : new Request(String(input), init)),
  );
  model = await import('./model.js');
});

describe('the account’s keys and webhooks', () => {
  it('are read for every environment, every page of webhooks included', async () => {
    seen.length = 0;
    const access = await model.loadAccess();
    expect(
      access.map(({ environment, keys, webhooks }) => [
        environment,
        keys.map((k) => k.id),
        webhooks.map((w) => w.id),
      ]),
    ).toEqual([
      ['development', [], ['whk_1', 'whk_2']],
      ['production', ['key_prod'], []],
    ]);
    expect(seen).toContain('GET /webhooks?environment=development&limit=100&cursor=next');
  });

  it('deletes a key by the path of its kind', async () => {
    seen.length = 0;
    await model.deleteKey({ id: 'key_1', kind: 'secret' });
    await model.deleteKey({ id: 'key_2', kind: 'publishable' });
    expect(seen).toEqual(['DELETE /keys/secrets/key_1', 'DELETE /keys/publishable/key_2']);
  });

  it('says "Never" for a key not used yet', () => {
    expect(model.whenOrNever(null)).toBe('Never');
    expect(model.whenOrNever('2026-11-01T00:00:00.000Z')).not.toBe('Never');
  });
});
