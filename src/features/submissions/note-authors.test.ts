import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, createKey, signup, type TestUser } from '../../../test/support/factories.js';
import { nowIso } from '../../platform/time.js';
import { insertMember } from '../workspaces/repo.js';

/**
 * Notes carry their author (API.md §14, issue 21 item 6): `{userId, email}` of the member who
 * wrote it, with `keyId` when a key did (the member named made the key); notes written before
 * authors were kept (migration 014) have `author: null`.
 */

let t: TestApp;
let owner: TestUser;
let formId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signup(t);
  formId = (
    await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'name', type: 'text', label: 'Name' }],
    })
  ).id;
});
afterAll(() => t?.close());

async function submission(id = formId): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: `/forms/${id}/submit`,
    body: { answers: { name: 'Ada' } },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

async function addNote(submissionId: string, auth: string, headers: Record<string, string> = {}) {
  const response = await t.request({
    method: 'POST',
    url: `/responses/${submissionId}/notes`,
    auth,
    body: { text: 'Called back' },
    headers,
  });
  expect(response.status, response.text).toBe(200);
  return response.body.notes.at(-1);
}

describe('note authors (API.md §14)', () => {
  it('a note written in a session names its member', async () => {
    const id = await submission();
    const note = await addNote(id, owner.token);
    expect(note.author).toEqual({ userId: owner.id, email: owner.email });
    const read = await t.request({
      method: 'GET',
      url: `/responses/${id}?form_id=${formId}&environment=development`,
      auth: owner.token,
    });
    expect(read.body.notes[0].author).toEqual({ userId: owner.id, email: owner.email });
    const list = await t.request({
      method: 'GET',
      url: `/responses?form_id=${formId}&environment=development`,
      auth: owner.token,
    });
    const listed = list.body.data.find((row: { id: string }) => row.id === id);
    expect(listed.notes[0].author).toEqual({ userId: owner.id, email: owner.email });
  });

  it('a note written with a key names the key and the member who made it', async () => {
    const key = await createKey(t, owner, 'secret');
    const note = await addNote(await submission(), key.key);
    expect(note.author).toEqual({ userId: owner.id, email: owner.email, keyId: key.id });
  });

  it("in a shared workspace, each member's note names them", async () => {
    const viewer = await signup(t);
    const workspace = (
      await t.request({ method: 'POST', url: '/workspaces', auth: owner.token, body: { name: 'T' } })
    ).body.id;
    await insertMember(t.app.intake.database.db, {
      workspaceId: workspace,
      userId: viewer.id,
      role: 'viewer',
      joinedAt: nowIso(),
    });
    const created = await t.request({
      method: 'POST',
      url: '/forms',
      auth: owner.token,
      headers: { 'x-intake-workspace': workspace },
      body: {
        title: 'Shared',
        environment: 'development',
        status: 'live',
        fields: [{ id: 'name', type: 'text', label: 'Name' }],
      },
    });
    const id = await submission(created.body.id);
    await addNote(id, owner.token, { 'x-intake-workspace': workspace });
    await addNote(id, viewer.token, { 'x-intake-workspace': workspace });
    const read = await t.request({
      method: 'GET',
      url: `/responses/${id}?form_id=${created.body.id}&environment=development`,
      auth: viewer.token,
      headers: { 'x-intake-workspace': workspace },
    });
    expect(read.body.notes.map((note: { author: { email: string } }) => note.author.email)).toEqual([
      owner.email,
      viewer.email,
    ]);
  });

  it('a note from before authors were kept has author null', async () => {
    const id = await submission();
    await t.app.intake.database.db
      .insertInto('submission_notes')
      .values({
        id: 'note_before',
        submission_id: id,
        user_id: owner.id,
        text: 'Old',
        created_at: nowIso(),
        author_email: null,
        key_id: null,
      })
      .execute();
    const read = await t.request({
      method: 'GET',
      url: `/responses/${id}?form_id=${formId}&environment=development`,
      auth: owner.token,
    });
    expect(read.body.notes).toEqual([
      { id: 'note_before', text: 'Old', createdAt: expect.any(String), author: null },
    ]);
  });
});
