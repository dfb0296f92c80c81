import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Vitest global setup: the pages need the client build (dist/web, made by `npm run build`).
 * This builds it when it is missing or older than a source under src/web (scripts/build-web.mjs
 * --if-stale: a look at a few modification times when it is up to date, about a second when not).
 */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, [path.join(root, 'scripts/build-web.mjs'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
    // built as `npm run build` builds it: under Vitest's NODE_ENV=test, Vite keeps the libraries'
    // development code, and the budgets' test measured a build no one serves (42 kB, not 38)
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
