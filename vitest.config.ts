import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { browserTestsSkip, requireAll } from './test/support/services.js';
import { SkippedTestsReporter } from './test/support/skipped-reporter.js';

/**
 * Four projects (`npm test` runs them all; `--project NAME` picks):
 * - unit: tests under src/ that import nothing from test/support nor node:child_process (pure
 *   modules: no app, no server, no process of their own);
 * - api: the other tests under src/ and test/, which build the app and drive it with inject();
 * - process: tests that run the service as a process, or the system around it (they import
 *   test/support/process.ts or node:child_process): restarts, crashes, outages, the build, the soak;
 * - browser: test/browser/, the pages in a real Chromium (npm run test:browser).
 * `npm run test:fast` is unit and api.
 *
 * A machine with Node.js alone passes `npm test` (test/support/services.ts): the api project
 * finds or starts a Redis (redis-setup.ts), the process project checks PostgreSQL's programs
 * (postgres-setup.ts), and the browser tests are left out when there is no Chromium; the run's
 * last line names what was skipped (skipped-reporter.ts). INTAKE_TEST_REQUIRE_ALL=1 (CI) skips
 * nothing: what is missing fails the run.
 */
const root = import.meta.dirname;
const testFiles = (dir: string) =>
  (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')));
const imports = (file: string, pattern: RegExp) =>
  pattern.test(fs.readFileSync(path.join(root, file), 'utf8'));

const browserTests = testFiles('test/browser');
const all = [...testFiles('src'), ...testFiles('test')].filter((file) => !browserTests.includes(file));
const processTests = all.filter((file) =>
  imports(file, /from '(?:\.\/support\/process\.js|node:child_process)'/),
);
// a file in the process project runs there alone (it was run by unit as well)
const unitTests = all.filter(
  (file) =>
    file.startsWith('src/') && !processTests.includes(file) && !imports(file, /from '[./]*test\/support\//),
);
const apiTests = all.filter((file) => !processTests.includes(file) && !unitTests.includes(file));
/** Builds src/web/client into dist/web when a source is newer than the build (quick otherwise). */
const webBuild = 'test/support/web-build.ts';
/** Without Chromium the browser tests are left out (said at the end), unless nothing may be skipped. */
const browserSkip = requireAll() ? undefined : browserTestsSkip();

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits 1 s by default: too little for a browser or a worker on a loaded CI machine
    expect: { poll: { timeout: 10_000 } },
    // Each file builds its own app on its own database (a temp dir, or a PostgreSQL schema).
    fileParallelism: true,
    // Vitest's default is one worker fewer than the cores: one on a two-core machine, which left
    // half of CI's machine idle (the files wait on fsync, child processes and Chromium as much as
    // they compute). Measured on two cores: unit, api and process in 5m11s with one worker, 3m12s
    // with two, 3m02s with three. The browser and process files keep one at a time (below).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    reporters: [
      'default',
      new SkippedTestsReporter(
        browserSkip ? [{ project: 'browser', files: browserTests, skip: browserSkip }] : [],
      ),
    ],
    // `npm run test:browser` without Chromium: nothing to run, which is a skip, not a failure.
    passWithNoTests: browserSkip !== undefined,
    projects: [
      // The unit files stay isolated: some replace a module (vi.mock) or a global (fetch) for
      // themselves alone.
      { extends: true, test: { name: 'unit', include: unitTests } },
      {
        extends: true,
        test: {
          name: 'api',
          include: apiTests,
          globalSetup: [webBuild, 'test/support/redis-setup.ts'],
          // The api files share their workers' loaded modules (no isolation): each builds its own
          // app on its own database (test/support/app.ts) and mocks no module, and importing the
          // service anew for each file was most of this project's time. Measured on two cores,
          // unit and api together: SQLite 4m08s isolated → 1m24s shared, PostgreSQL 6m27s → 4m00s,
          // the same tests passing (6,370 and 6,394), file order shuffled too.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: processTests,
          globalSetup: ['test/support/postgres-setup.ts'],
          // One at a time, after every other file: restarts, crashes, overload and the soak time
          // their processes (overload's p99 bound of 5 s was once met at 3.56 s on a busy CI).
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: browserSkip ? [] : browserTests,
          globalSetup: [webBuild],
          // One Chromium at a time, after the unit and api files, as before: two at once beside
          // them saved about a minute, not worth the api tests' timing bounds beside Chromium.
          fileParallelism: false,
          testTimeout: 60_000,
        },
      },
    ],
  },
});
