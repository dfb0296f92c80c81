import { api, ok } from '../api/client.js';
import type { paths } from '../api/schema.js';

/**
 * What the account's views read of the API (API.md §3, §4, §7): the keys of an environment, and
 * every key and webhook of every environment, which the account view lists after a password is
 * changed or reset so that a person can revoke what someone else may have made meanwhile.
 */

export type Key = paths['/keys']['get']['responses'][200]['content']['application/json']['data'][number];
export type Hook = paths['/webhooks']['get']['responses'][200]['content']['application/json']['data'][number];

export const keysKey = (environment: string): string => `keys:${environment}`;
export const ACCESS_KEY = 'access';

export const loadKeys = async (environment: string): Promise<Key[]> =>
  (await ok(api.GET('/keys', { params: { query: { environment } } }))).data;

export async function deleteKey(key: Pick<Key, 'id' | 'kind'>): Promise<void> {
  const path = { params: { path: { keyId: key.id } } };
  if (key.kind === 'secret') await ok(api.DELETE('/keys/secrets/{keyId}', path));
  else await ok(api.DELETE('/keys/publishable/{keyId}', path));
}

/** Every webhook of an environment: every page of GET /webhooks. */
async function webhooksOf(environment: string): Promise<Hook[]> {
  const found: Hook[] = [];
  let cursor: string | undefined;
  do {
    const query = { environment, limit: 100, ...(cursor ? { cursor } : {}) };
    const page = await ok(api.GET('/webhooks', { params: { query } }));
    found.push(...page.data);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found;
}

/** What may act on the account's data without its password, per environment. */
export interface Access {
  environment: string;
  keys: Key[];
  webhooks: Hook[];
}

/** The keys and webhooks of every environment of the account. */
export async function loadAccess(): Promise<Access[]> {
  const environments = (await ok(api.GET('/environments'))).data.map((entry) => entry.name);
  return Promise.all(
    environments.map(async (environment) => {
      const [keys, webhooks] = await Promise.all([loadKeys(environment), webhooksOf(environment)]);
      return { environment, keys, webhooks };
    }),
  );
}

/** A moment in the person's own words, or "Never" (a key not used yet). */
export const whenOrNever = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : 'Never');
