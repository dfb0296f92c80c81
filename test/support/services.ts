import fs from 'node:fs';
import path from 'node:path';

/**
 * What some tests need from the machine beyond Node.js: a Redis server, PostgreSQL's server
 * programs, Chromium. `npm test` on a machine with Node.js alone must pass, so a test whose need
 * is missing is skipped, and the run ends with one line naming each skip and the command that
 * installs what it lacked (test/support/skipped-reporter.ts). CI sets INTAKE_TEST_REQUIRE_ALL=1:
 * there a missing need fails the run instead, so that nothing is ever skipped there unseen.
 *
 * This module imports nothing but Node's own: vitest.config.ts reads it too.
 */

/** What the global setups (redis-setup.ts, postgres-setup.ts) hand the tests and the reporter. */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The Redis the rate-limit tests use (`inject('testRedisUrl')`); null when there is none (skipped). */
    testRedisUrl: string | null;
    /** What this project's tests leave out for want of a program (said at the end of the run). */
    skippedTests: SkippedTests[];
  }
}

/** Set (to 1) by .ci/run: a test that would be skipped for want of a program fails instead. */
export const REQUIRE_ALL_VARIABLE = 'INTAKE_TEST_REQUIRE_ALL';

export function requireAll(): boolean {
  const value = process.env[REQUIRE_ALL_VARIABLE];
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** One kind of test left out, and why, in the words of the run's last line. */
export interface SkippedTests {
  /** The tests left out: "browser tests". */
  tests: string;
  /** What the machine lacks: "no Chromium at /usr/bin/chromium". */
  missing: string;
  /** The command that installs it: "apt-get install chromium". */
  install: string;
  /**
   * The test files whose tests are skipped (relative to the project's root), when the skip is
   * decided for a whole project: it is said at the end only when one of them was in the run.
   */
  files?: string[];
}

/** `Skipped: browser tests (no Chromium at /usr/bin/chromium: apt-get install chromium), …` */
export function skippedLine(skipped: readonly SkippedTests[]): string {
  return `Skipped: ${skipped.map((skip) => `${skip.tests} (${skip.missing}: ${skip.install})`).join(', ')}`;
}

/** Thrown instead of skipping when INTAKE_TEST_REQUIRE_ALL is set. */
export function requiredButMissing(skip: SkippedTests): Error {
  return new Error(
    `${REQUIRE_ALL_VARIABLE} is set, so ${skip.tests} may not be skipped, but there is ${skip.missing}: ${skip.install}`,
  );
}

/** Whether `file` is a file this process may run (an empty or non-executable one is not a program). */
export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The program's path, looked up on PATH as a shell would, or undefined when it is not installed. */
export function findProgram(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

// --- Chromium ------------------------------------------------------------------------------

/** Debian's Chromium (`apt-get install chromium`), or the one CHROMIUM_PATH names. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The browser tests (test/browser), when there is no Chromium to drive. */
export function browserTestsSkip(chromiumPath = CHROMIUM_PATH): SkippedTests | undefined {
  if (isExecutable(chromiumPath)) return undefined;
  return {
    tests: 'browser tests',
    missing: `no Chromium at ${chromiumPath}`,
    install: 'apt-get install chromium, or set CHROMIUM_PATH',
  };
}

// --- Redis ---------------------------------------------------------------------------------

/** Where the tests look for a Redis already running, unless TEST_REDIS_URL names one. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const REDIS_TESTS_SKIP: SkippedTests = {
  tests: 'Redis rate-limit tests',
  files: ['src/features/submissions/submit-limits.test.ts'],
  missing: `no Redis at ${DEFAULT_REDIS_URL.slice('redis://'.length)} and no redis-server to start`,
  install: 'apt-get install redis-server',
};

// --- PostgreSQL ----------------------------------------------------------------------------

export const POSTGRES_OUTAGE_TESTS_SKIP: SkippedTests = {
  tests: 'PostgreSQL outage tests',
  files: ['test/postgres-outage.test.ts'],
  missing: 'no initdb or pg_ctl',
  install: 'apt-get install postgresql',
};
