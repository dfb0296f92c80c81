import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Db } from '../../platform/db/database.js';
import type { StoredForm } from '../forms/repo.js';
import { revealAnswers } from './pii.js';
import { type SubmissionFilter, streamSubmissions } from './repo.js';
import type { AnswerValue } from './validator.js';

/**
 * CSV export of a form's submissions (API.md §6.2): RFC 4180 (CRLF, quotes where needed),
 * UTF-8, header `id,createdAt,status,read,starred` then one column per field of the form,
 * values as the owner sees them (masked values masked, encrypted ones decrypted). Rows
 * come from a keyset cursor in chunks and leave through a stream with backpressure, so
 * memory stays flat however many rows match.
 */

export const FIXED_COLUMNS = ['id', 'createdAt', 'status', 'read', 'starred'] as const;

// `=`, `+`, `-`, `@`, tab, CR, and the full-width forms some spreadsheets fold into them.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A cell a spreadsheet would run as a formula is prefixed with `'` (the formula-injection guard). */
export function guardCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** An answer as one cell: arrays joined with `; `, absent answers empty. */
export function cellOf(value: AnswerValue | undefined): string {
  if (value === undefined || value === null) return '';
  return Array.isArray(value) ? value.join('; ') : String(value);
}

/** The export as a byte stream: the header, then every matching submission, newest first. */
export function csvStream(db: Db, envelope: Envelope, form: StoredForm, filter: SubmissionFilter): Readable {
  const fieldIds = form.definition.fields.map((field) => field.id);
  async function* records() {
    yield [...FIXED_COLUMNS, ...fieldIds].map(guardCell);
    for await (const submission of streamSubmissions(db, filter)) {
      const answers = await revealAnswers(submission.answers, envelope);
      yield [
        submission.id,
        submission.createdAt,
        submission.status,
        String(submission.read),
        String(submission.starred),
        ...fieldIds.map((id) => cellOf(answers[id])),
      ].map(guardCell);
    }
  }
  // pipeline: an error on either side destroys both, so the response is cut rather than left hanging
  return pipeline(
    Readable.from(records()),
    stringify({ record_delimiter: '\r\n', quote_record_delimiter: true }),
    () => {},
  );
}

export function sendCsv(reply: FastifyReply, form: StoredForm, stream: Readable): FastifyReply {
  return reply
    .status(200)
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${form.id}-responses.csv"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
