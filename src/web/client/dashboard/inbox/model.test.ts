import { describe, expect, it } from 'vitest';
import {
  csvHref,
  exportHref,
  type Filter,
  type InboxForm,
  NO_FILTER,
  newerThan,
  noteAuthor,
  pageOf,
  queryOf,
  rangeProblem,
  readOf,
  recipientOf,
  type Submission,
  statusOf,
} from './model.js';

const form: InboxForm = {
  id: 'frm_1',
  title: 'Feedback',
  environment: 'development',
  fields: [
    { id: 'name', label: 'Name', type: 'text' },
    { id: 'work', label: 'Work e-mail', type: 'email', pii: true, piiMode: 'hashed' },
    { id: 'email', label: 'E-mail', type: 'email', pii: true },
  ],
  storage: { pii: 'plain' },
};
const submission = (answers: Submission['answers'], createdAt = '2026-11-20T10:00:00.000Z', id = 'sub_1') =>
  ({
    id,
    formId: 'frm_1',
    environment: 'development',
    answers,
    sessionId: null,
    status: 'accepted',
    read: false,
    starred: false,
    language: 'en',
    notes: [],
    createdAt,
  }) satisfies Submission;

describe('queryOf', () => {
  it('asks for the form’s newest 50, leaving out what the filter does not set', () => {
    expect(queryOf(form, NO_FILTER)).toEqual({ form_id: 'frm_1', environment: 'development', limit: 50 });
  });
  it('carries every part of the filter, and the cursor of the next page', () => {
    const filter: Filter = {
      status: 'flagged',
      starred: true,
      read: 'false',
      from: '2026-11-01',
      to: '2026-11-30',
    };
    expect(queryOf(form, filter, 'cur')).toEqual({
      form_id: 'frm_1',
      environment: 'development',
      limit: 50,
      cursor: 'cur',
      status: 'flagged',
      starred: true,
      read: false,
      from: '2026-11-01',
      to: '2026-11-30',
    });
  });
});

describe('csvHref', () => {
  it('is the same query as CSV, every page of it (no limit), for people: labels, a BOM, the notes', () => {
    const href = new URL(csvHref(form, { ...NO_FILTER, read: 'true' }), 'http://x');
    expect(href.pathname).toBe('/responses');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      form_id: 'frm_1',
      environment: 'development',
      read: 'true',
      format: 'csv',
      headers: 'labels',
      bom: '1',
      notes: '1',
    });
  });
});

describe('exportHref', () => {
  it('asks Excel for labels and notes (no BOM: a workbook has none), NDJSON for the filter alone', () => {
    const query = (format: 'xlsx' | 'ndjson') =>
      Object.fromEntries(
        new URL(exportHref(form, { ...NO_FILTER, status: 'flagged' }, format), 'http://x').searchParams,
      );
    const filter = { form_id: 'frm_1', environment: 'development', status: 'flagged' };
    expect(query('xlsx')).toEqual({ ...filter, format: 'xlsx', headers: 'labels', notes: '1' });
    expect(query('ndjson')).toEqual({ ...filter, format: 'ndjson' });
  });
});

describe('recipientOf', () => {
  it('is the first e-mail answer the server can send to: hashed ones cannot be', () => {
    expect(recipientOf(form, submission({ work: 'sha256:…', email: 'ada@example.com' }))).toBe(
      'ada@example.com',
    );
  });
  it('is none without an address among the answers', () => {
    expect(recipientOf(form, submission({ name: 'Ada', email: '' }))).toBeUndefined();
  });
  it('follows the form’s default handling for a personal field without its own', () => {
    const dropped: InboxForm = { ...form, storage: { pii: 'dropped' } };
    expect(recipientOf(dropped, submission({ email: 'ada@example.com' }))).toBeUndefined();
  });
});

describe('the rest of the inbox’s words and checks', () => {
  it('orders newest first by time, then id', () => {
    const older = submission({}, '2026-11-20T10:00:00.000Z', 'sub_2');
    expect(newerThan(submission({}, '2026-11-21T10:00:00.000Z'), older)).toBe(true);
    expect(newerThan(submission({}, '2026-11-20T10:00:00.000Z', 'sub_3'), older)).toBe(true);
    expect(newerThan(older, older)).toBe(false);
  });
  it('refuses a range whose end comes before its start, and nothing else', () => {
    expect(rangeProblem({ ...NO_FILTER, from: '2026-11-02', to: '2026-11-01' })).toMatch(/before/);
    expect(rangeProblem({ ...NO_FILTER, from: '2026-11-02', to: '2026-11-02' })).toBeUndefined();
    expect(rangeProblem({ ...NO_FILTER, to: '2026-11-01' })).toBeUndefined();
  });
  it('reads a select’s value as a filter part, and anything unknown as none', () => {
    expect(statusOf('quarantined')).toBe('quarantined');
    expect(statusOf('deleted')).toBe('');
    expect(readOf('false')).toBe('false');
    expect(readOf('maybe')).toBe('');
  });
  it('takes a page of JSON, and refuses CSV where a page was asked for', () => {
    const page = { data: [], nextCursor: null };
    expect(pageOf(page)).toBe(page);
    expect(() => pageOf('id,createdAt\n')).toThrow(/CSV/);
  });
});

describe('noteAuthor', () => {
  it('names the author by address, says when a key wrote it, and owns up to not knowing', () => {
    expect(noteAuthor({ author: { userId: 'usr_1', email: 'ada@example.com' } })).toBe('ada@example.com');
    expect(noteAuthor({ author: { userId: 'usr_1', email: 'ada@example.com', keyId: 'key_9' } })).toBe(
      'ada@example.com (through API key key_9)',
    );
    expect(noteAuthor({ author: null })).toBe('Unknown author');
  });
});
