import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import { createKey, signup } from '../../../test/support/factories.js';
import { createForm } from '../../../test/support/forms.js';
import { type Problem, type TypedResponse, typed } from '../../../test/support/json.js';
import { responsesApi, SUBMISSION_KEYS, type SubmissionView } from '../../../test/support/responses.js';

/**
 * API.md §6.2: the owner's inbox — one submission: the single read, read/unread, star, notes and delete.
 * The others: responses-access, responses-list (shared helpers in test/support/responses.ts).
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000, monthlyQuota: 0 });
});
afterAll(async () => {
  await t.close();
});

const { owner, submitOne, list, listIds, readOne, storedRow, noteCount, expectUntouched } = responsesApi(
  () => t,
);

describe('one submission', () => {
  it('reads the same submission the list shows', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form, {
      answers: { name: 'Solo', email: 'solo@example.com' },
      sessionId: 's-9',
    });
    const single = await readOne(user.token, form, id);
    expect(single.status).toBe(200);
    expect(Object.keys(single.body).sort()).toEqual(SUBMISSION_KEYS);
    const listed = (await list(user.token, form)).body.data[0];
    expect(single.body).toEqual(listed);
    expect(single.body).toMatchObject({
      id,
      formId: form.id,
      environment: 'development',
      answers: { name: 'Solo', email: 'solo@example.com' },
      sessionId: 's-9',
      status: 'accepted',
    });
  });

  it('read: no body marks it read, {read:false} unread, {read:true} read again', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const post = async (body?: unknown, headers?: Record<string, string>) =>
      typed<SubmissionView>(
        await t.request({ method: 'POST', url: `/responses/${id}/read`, auth: user.token, body, headers }),
      );

    const marked = await post();
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body).toMatchObject({ id, read: true, starred: false });
    expect((await readOne(user.token, form, id)).body.read).toBe(true);

    const unread = await post({ read: false });
    expect(unread.status).toBe(200);
    expect(unread.body.read).toBe(false);
    expect((await readOne(user.token, form, id)).body.read).toBe(false);

    expect((await post({})).body.read).toBe(true);
    expect((await post({ read: false })).body.read).toBe(false);
    expect((await post({ read: true })).body.read).toBe(true);
    expect(await storedRow(id)).toEqual({ id, read: 1, starred: 0 });
  });

  it('read: an empty body sent as JSON counts as no body', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const response = typed<SubmissionView>(
      await t.request({
        method: 'POST',
        url: `/responses/${id}/read`,
        auth: user.token,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.read).toBe(true);
  });

  it.each([[{ read: 'no' }], [{ read: 0 }], [{ unread: true }], [[]], ['"x"']])(
    'read with body %j → 400 validation_failed',
    async (body) => {
      const { user, form } = await owner();
      const id = await submitOne(form);
      const response = await t.request({
        method: 'POST',
        url: `/responses/${id}/read`,
        auth: user.token,
        body,
      });
      expectProblem(response, 400, 'validation_failed');
      await expectUntouched(id);
    },
  );

  it('star: {starred:true} stars, {starred:false} unstars', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const star = async (starred: boolean) =>
      typed<SubmissionView>(
        await t.request({
          method: 'POST',
          url: `/responses/${id}/star`,
          auth: user.token,
          body: { starred },
        }),
      );
    const starred = await star(true);
    expect(starred.status).toBe(200);
    expect(starred.body).toMatchObject({ id, starred: true, read: false });
    expect((await readOne(user.token, form, id)).body.starred).toBe(true);
    expect((await star(true)).body.starred).toBe(true);
    const unstarred = await star(false);
    expect(unstarred.body.starred).toBe(false);
    expect((await readOne(user.token, form, id)).body.starred).toBe(false);
  });

  it.each([[{}], [{ starred: 'true' }], [{ starred: 1 }], [{ starred: true, extra: 1 }], [undefined]])(
    'star with body %j → 400 validation_failed',
    async (body) => {
      const { user, form } = await owner();
      const id = await submitOne(form);
      const response = await t.request({
        method: 'POST',
        url: `/responses/${id}/star`,
        auth: user.token,
        body,
      });
      expectProblem(response, 400, 'validation_failed');
      await expectUntouched(id);
    },
  );

  it('notes: kept in order, shown in the single read and in the list', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const other = await submitOne(form);
    const texts = ['First call: no answer', 'Second call', 'x', 'Émilie 😀 — « ok »', 'fifth'];
    let last: TypedResponse<SubmissionView> | undefined;
    for (const text of texts) {
      last = typed<SubmissionView>(
        await t.request({
          method: 'POST',
          url: `/responses/${id}/notes`,
          auth: user.token,
          body: { text },
        }),
      );
      expect(last.status, last.text).toBe(200);
    }
    expect(last?.body.id).toBe(id);
    expect(last?.body.notes.map((note) => note.text)).toEqual(texts);
    for (const note of last?.body.notes ?? []) {
      expect(Object.keys(note).sort()).toEqual(['author', 'createdAt', 'id', 'text']);
      expect(note.createdAt).toMatch(ISO_MS);
    }
    expect(new Set(last?.body.notes.map((note) => note.id)).size).toBe(texts.length);

    const single = await readOne(user.token, form, id);
    expect(single.body.notes).toEqual(last?.body.notes);
    const listed = (await list(user.token, form)).body.data;
    expect(listed.find((item) => item.id === id)?.notes).toEqual(last?.body.notes);
    expect(listed.find((item) => item.id === other)?.notes).toEqual([]);
  });

  it('notes written in the same millisecond: the list orders them as the single read does (time, then id)', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const at = new Date().toISOString();
    // stored in the other order than their ids: the index gives them by row, the answer by id
    await t.app.intake.database.db
      .insertInto('submission_notes')
      .values(
        ['note_zz', 'note_aa'].map((noteId) => ({
          id: noteId,
          submission_id: id,
          user_id: user.id,
          text: noteId,
          created_at: at,
        })),
      )
      .execute();
    const single = await readOne(user.token, form, id);
    expect(single.body.notes.map((note) => note.id)).toEqual(['note_aa', 'note_zz']);
    const listed = (await list(user.token, form)).body.data.find((item) => item.id === id);
    expect(listed?.notes).toEqual(single.body.notes);
  });

  it('notes: the first note comes back in the answer of the POST', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const response = typed<SubmissionView>(
      await t.request({
        method: 'POST',
        url: `/responses/${id}/notes`,
        auth: user.token,
        body: { text: 'only' },
      }),
    );
    expect(response.body.notes).toEqual([
      {
        id: expect.any(String),
        text: 'only',
        createdAt: expect.stringMatching(ISO_MS),
        author: { userId: user.id, email: user.email },
      },
    ]);
  });

  it('notes: 10000 characters are accepted', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const text = 'n'.repeat(10_000);
    const response = typed<SubmissionView>(
      await t.request({
        method: 'POST',
        url: `/responses/${id}/notes`,
        auth: user.token,
        body: { text },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body.notes[0]?.text).toBe(text);
  });

  it.each([
    ['empty', { text: '' }],
    ['blank', { text: '   ' }],
    ['only line breaks and tabs', { text: '\n\t\r\n' }],
    ['10001 characters', { text: 'n'.repeat(10_001) }],
    ['not a string', { text: 5 }],
    ['missing', {}],
    ['an unknown member', { text: 'ok', pinned: true }],
  ])('notes: %s → 400 validation_failed, nothing stored', async (_name, body) => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const response = typed<Problem>(
      await t.request({
        method: 'POST',
        url: `/responses/${id}/notes`,
        auth: user.token,
        body,
      }),
    );
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: expect.any(String) })]),
    );
    expect(await noteCount(id)).toBe(0);
  });

  it('delete: 204, then 404 everywhere, and its notes go with it', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const kept = await submitOne(form);
    await t.request({
      method: 'POST',
      url: `/responses/${id}/notes`,
      auth: user.token,
      body: { text: 'bye' },
    });
    expect(await noteCount(id)).toBe(1);

    const deleted = await t.request({ method: 'DELETE', url: `/responses/${id}`, auth: user.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(await storedRow(id)).toBeUndefined();
    expect(await noteCount(id)).toBe(0);

    expectProblem(await readOne(user.token, form, id), 404, 'not_found');
    expectProblem(
      await t.request({ method: 'DELETE', url: `/responses/${id}`, auth: user.token }),
      404,
      'not_found',
    );
    expectProblem(
      await t.request({ method: 'POST', url: `/responses/${id}/read`, auth: user.token }),
      404,
      'not_found',
    );
    expect(await listIds(user.token, form)).toEqual([kept]);
  });

  it('delete with a scope checks it', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    expectProblem(
      await t.request({
        method: 'DELETE',
        url: `/responses/${id}?form_id=${form.id}&environment=production`,
        auth: user.token,
      }),
      403,
      'form_not_in_environment',
    );
    expect(await storedRow(id)).toBeDefined();
    const deleted = await t.request({
      method: 'DELETE',
      url: `/responses/${id}?form_id=${form.id}&environment=development`,
      auth: user.token,
    });
    expect(deleted.status).toBe(204);
    expect(await storedRow(id)).toBeUndefined();
  });

  it('a secret key of a non-default environment manages that environment only', async () => {
    const user = await signup(t);
    const created = await t.request({
      method: 'POST',
      url: '/environments',
      auth: user.token,
      body: { name: 'staging' },
    });
    expect(created.status).toBe(201);
    const form = await createForm(t, user.token, { status: 'live', environment: 'staging' });
    const id = await submitOne(form);
    const staging = (await createKey(t, user, 'secret', 'staging')).key;
    const development = (await createKey(t, user, 'secret', 'development')).key;
    expect(await listIds(staging, form)).toEqual([id]);
    expectProblem(await list(development, form), 403, 'forbidden');
    expectProblem(
      await list(user.token, form, { environment: 'development' }),
      403,
      'form_not_in_environment',
    );
    const starred = typed<SubmissionView>(
      await t.request({
        method: 'POST',
        url: `/responses/${id}/star`,
        auth: staging,
        body: { starred: true },
      }),
    );
    expect(starred.body.starred).toBe(true);
  });
});
