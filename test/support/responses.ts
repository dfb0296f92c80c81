import type { Static } from '@sinclair/typebox';
import { expect } from 'vitest';
import { countStored } from '../../src/features/submissions/counters.js';
import type { SubmissionOut, SubmitResult } from '../../src/features/submissions/schemas.js';
import { newId } from '../../src/platform/ids.js';
import type { RequestOptions, Response, TestApp } from './app.js';
import { signup, type TestUser, workspaceOfForm } from './factories.js';
import { createForm, type FormView } from './forms.js';
import { type Page, typed } from './json.js';

/** What the inbox tests (src/features/submissions/responses-*.test.ts) share. */

/** A submission as its owner reads it (GET /responses, /responses/{id}, and the changes' answers). */
export type SubmissionView = Static<typeof SubmissionOut>;
export type SubmissionPage = Page<SubmissionView>;
/** What POST /forms/{id}/submit answers. */
export type SubmitResultView = Static<typeof SubmitResult>;

export const SUBMISSION_KEYS = [
  'answers',
  'createdAt',
  'environment',
  'formId',
  'id',
  'language',
  'notes',
  'read',
  'sessionId',
  'starred',
  'status',
].sort();

export type Status = 'accepted' | 'flagged' | 'quarantined';

export interface Owner {
  user: TestUser;
  form: FormView;
}

export type Endpoint = 'list' | 'get' | 'read' | 'star' | 'notes' | 'delete';
export const ENDPOINTS: Endpoint[] = ['list', 'get', 'read', 'star', 'notes', 'delete'];

/** Newest first: createdAt desc, then id desc. */
export const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

export function expectSuccess(endpoint: Endpoint, response: Response, id: string): void {
  if (endpoint === 'delete') {
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe('');
    return;
  }
  expect(response.status, response.text).toBe(200);
  if (endpoint === 'list') expect(response.body.data.map((item: SubmissionView) => item.id)).toContain(id);
  else expect(response.body.id).toBe(id);
}

/**
 * The inbox requests and rows of one test file, against its app (`app()` is read at each call:
 * the app is built in the file's beforeAll).
 */
export function responsesApi(app: () => TestApp) {
  async function liveForm(user: TestUser, overrides: Record<string, unknown> = {}): Promise<FormView> {
    return createForm(app(), user.token, { status: 'live', ...overrides });
  }

  async function owner(overrides: Record<string, unknown> = {}): Promise<Owner> {
    const user = await signup(app());
    return { user, form: await liveForm(user, overrides) };
  }

  let counter = 0;
  const answersFor = (label = `Person ${++counter}`) => ({ name: label, email: `p${counter}@example.com` });

  /** One anonymous submission through the API; its id. */
  async function submitOne(
    form: FormView,
    body: Record<string, unknown> = { answers: answersFor() },
  ): Promise<string> {
    const response = typed<SubmitResultView>(
      await app().request({ method: 'POST', url: `/forms/${form.id}/submit`, body }),
    );
    expect(response.status, response.text).toBe(201);
    return response.body.id;
  }

  /** A submission written straight into the database, with the creation time (and id) the test needs. */
  async function insertRow(
    form: FormView,
    row: {
      createdAt: string;
      id?: string;
      status?: Status;
      read?: boolean;
      starred?: boolean;
      answers?: Record<string, unknown>;
    },
  ): Promise<string> {
    const id = row.id ?? newId('sub');
    await app()
      .app.intake.database.db.insertInto('submissions')
      .values({
        id,
        workspace_id: await workspaceOfForm(app(), form.id),
        environment: form.environment,
        form_id: form.id,
        form_version: form.version,
        answers: JSON.stringify(row.answers ?? { name: `Row ${id}` }),
        session_id: null,
        status: row.status ?? 'accepted',
        read: row.read ? 1 : 0,
        starred: row.starred ? 1 : 0,
        created_at: row.createdAt,
      })
      .execute();
    // the forms list reads its counts from the counters every write keeps (counters.ts)
    await app().app.intake.database.transaction((trx) =>
      countStored(trx, [
        {
          formId: form.id,
          status: row.status ?? 'accepted',
          read: row.read ?? false,
          createdAt: row.createdAt,
        },
      ]),
    );
    return id;
  }

  function listUrl(form: FormView, query: Record<string, string> = {}): string {
    const params = new URLSearchParams({ form_id: form.id, environment: form.environment, ...query });
    return `/responses?${params}`;
  }

  async function list(auth: string, form: FormView, query: Record<string, string> = {}) {
    return typed<SubmissionPage>(await app().request({ method: 'GET', url: listUrl(form, query), auth }));
  }

  /** The ids of a successful list. */
  async function listIds(
    auth: string,
    form: FormView,
    query: Record<string, string> = {},
  ): Promise<string[]> {
    const response = await list(auth, form, query);
    expect(response.status, response.text).toBe(200);
    return response.body.data.map((item) => item.id);
  }

  /** Every page of a list, following nextCursor. */
  async function allPages(
    auth: string,
    form: FormView,
    query: Record<string, string> = {},
  ): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const response = await list(auth, form, cursor ? { ...query, cursor } : query);
      expect(response.status, response.text).toBe(200);
      pages.push(response.body.data.map((item) => item.id));
      cursor = response.body.nextCursor;
      expect(pages.length).toBeLessThan(1000);
    } while (cursor !== null);
    return pages;
  }

  async function readOne(auth: string, form: FormView, id: string) {
    return typed<SubmissionView>(
      await app().request({
        method: 'GET',
        url: `/responses/${id}?form_id=${form.id}&environment=${form.environment}`,
        auth,
      }),
    );
  }

  /** The stored row, read behind the API's back. */
  async function storedRow(id: string) {
    return app()
      .app.intake.database.db.selectFrom('submissions')
      .select(['id', 'read', 'starred'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async function noteCount(id: string): Promise<number> {
    const rows = await app()
      .app.intake.database.db.selectFrom('submission_notes')
      .select('id')
      .where('submission_id', '=', id)
      .execute();
    return rows.length;
  }

  /** One of the inbox routes, less its credential (the who-may-do-what matrix adds the caller's). */
  function requestOf(
    endpoint: Endpoint,
    form: FormView,
    id: string,
    query = `form_id=${form.id}&environment=${form.environment}`,
  ): Omit<RequestOptions, 'auth'> {
    switch (endpoint) {
      case 'list':
        return { method: 'GET', url: `/responses?${query}` };
      case 'get':
        return { method: 'GET', url: `/responses/${id}?${query}` };
      case 'read':
        return { method: 'POST', url: `/responses/${id}/read?${query}` };
      case 'star':
        return { method: 'POST', url: `/responses/${id}/star?${query}`, body: { starred: true } };
      case 'notes':
        return { method: 'POST', url: `/responses/${id}/notes?${query}`, body: { text: 'a note' } };
      case 'delete':
        return { method: 'DELETE', url: `/responses/${id}?${query}` };
    }
  }

  /** One of the inbox routes, sent with this token or key. */
  function call(
    endpoint: Endpoint,
    auth: string | undefined,
    form: FormView,
    id: string,
    query?: string,
  ): Promise<Response> {
    return app().request({ ...requestOf(endpoint, form, id, query), auth });
  }

  /** The submission is exactly as it was created: unread, not starred, no notes, still there. */
  async function expectUntouched(id: string): Promise<void> {
    expect(await storedRow(id)).toEqual({ id, read: 0, starred: 0 });
    expect(await noteCount(id)).toBe(0);
  }

  return {
    liveForm,
    owner,
    answersFor,
    submitOne,
    insertRow,
    list,
    listIds,
    allPages,
    readOne,
    storedRow,
    noteCount,
    requestOf,
    call,
    expectUntouched,
  };
}
