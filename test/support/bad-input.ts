import { expect } from 'vitest';
import type { Response, TestApp } from './app.js';
import { expectProblem as expectProblemShape } from './assertions.js';

/** Shared by the bad-input test files: what a refusal must never show, and the rows a refusal must leave alone. */

/** Traces of the implementation that must never reach a client. */
export const LEAKS = [
  /\n\s+at /, // stack frame
  /node_modules/,
  /\.[cm]?[jt]s:\d+/, // file:line
  /SQLITE_/,
  /\bSELECT\b/,
  /\bINSERT INTO\b/i,
  /\bDELETE FROM\b/i,
  /\bviolates\b/i,
  /\bconstraint\b/i,
  /syntax error at/i,
];

/** A problem document with that status and code, leaking nothing. */
export function expectCleanProblem(response: Response, status: number, code: string): any {
  expectProblemShape(response, status, code);
  const body = response.body;
  expect(body).not.toHaveProperty('stack');
  for (const leak of LEAKS) expect(response.text).not.toMatch(leak);
  return body;
}

export const fieldsOf = (body: any): string[] => (body.errors ?? []).map((e: { field: string }) => e.field);

/** Every row the API keeps, so that a refused request can be shown to have changed nothing. */
export async function snapshot(t: TestApp) {
  const db = t.app.intake.database.db;
  const [users, sessions, environments, apiKeys, forms, webhooks] = await Promise.all([
    db.selectFrom('users').select(['id', 'email']).orderBy('id').execute(),
    db.selectFrom('sessions').select(['token_hash']).orderBy('token_hash').execute(),
    db
      .selectFrom('environments')
      .select(['workspace_id', 'name'])
      .orderBy('workspace_id')
      .orderBy('name')
      .execute(),
    db.selectFrom('api_keys').select(['id', 'workspace_id', 'environment', 'kind']).orderBy('id').execute(),
    db
      .selectFrom('forms')
      .select(['id', 'title', 'status', 'version', 'definition', 'updated_at'])
      .orderBy('id')
      .execute(),
    db.selectFrom('webhooks').selectAll().orderBy('id').execute(),
  ]);
  return { users, sessions, environments, apiKeys, forms, webhooks };
}

export const JSON_TYPE = { 'content-type': 'application/json' };
