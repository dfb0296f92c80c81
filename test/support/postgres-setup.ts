import type { TestProject } from 'vitest/node';
import { postgresBinaries } from './postgres-cluster.js';
import { POSTGRES_OUTAGE_TESTS_SKIP, requireAll, requiredButMissing } from './services.js';

/**
 * Vitest global setup of the process project: the PostgreSQL outage tests
 * (test/postgres-outage.test.ts) run with the PostgreSQL suite (DATABASE_URL set) on a server they
 * create themselves from PostgreSQL's server programs. Without those programs the tests skip
 * themselves; this says so at the end of the run, or fails it under INTAKE_TEST_REQUIRE_ALL.
 * On SQLite (no DATABASE_URL) they are not meant to run, and nothing is said.
 */
export default function setup(project: TestProject): void {
  if (!process.env.DATABASE_URL || postgresBinaries()) return;
  if (requireAll()) throw requiredButMissing(POSTGRES_OUTAGE_TESTS_SKIP);
  project.provide('skippedTests', [POSTGRES_OUTAGE_TESTS_SKIP]);
}
