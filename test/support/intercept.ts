import type { CompiledQuery } from 'kysely';
import { shapesNotCached } from '../../src/platform/db/cached-statement.js';
import type { Db } from '../../src/platform/db/database.js';

/**
 * `db` with `before` called ahead of each statement it runs itself (not a transaction's: those
 * run on the transaction's own instance). A test slows, counts or fails the writer's one
 * statement with it (features/submissions/one-statement.ts) as it wraps `transaction` for the rest.
 */
export function interceptQueries(db: Db, before: (query: CompiledQuery) => unknown): Db {
  return new Proxy(db, {
    get: (target, property) => {
      if (property === 'executeQuery')
        return async (query: CompiledQuery) => {
          await before(query);
          return target.executeQuery(query);
        };
      // Kysely's private fields need the real instance as `this`
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The service's own statement shapes that `executeCached` could not cache (cached-statement.ts):
 * those a test names `test: …` to try the cache's refusals are left out, as the api files share
 * their worker's loaded modules (vitest.config.ts) and so the list of shapes.
 */
export const serviceShapesNotCached = (): string[] =>
  [...shapesNotCached()].filter((shape) => !shape.startsWith('test: '));
