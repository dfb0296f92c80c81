import type { StoredKey } from './repo.js';

/** A key as listed: never the key itself, which only its creation answer shows. */
export function presentKey(key: StoredKey) {
  return {
    id: key.id,
    kind: key.kind,
    environment: key.environment,
    last4: key.last4,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
  };
}
