import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Db } from '../../platform/db/database.js';
import type { StoredForm } from '../forms/repo.js';
import { hasEncrypted, revealAnswers, revealAnswersInPlace } from './pii.js';
import { exportChunks, type SubmissionFilter } from './repo.js';
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

/** Rows read, turned into text and written at a time: one query and one socket write each. */
const CHUNK = 1000;

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One RFC 4180 record: cells quoted when they hold a quote, comma or line break (quotes
 * doubled), CRLF at the end. Written here rather than with csv-stringify because every
 * cell is already a string and this is the export's inner loop: csv-stringify's general
 * machinery took five times as long as the rest of the record's work.
 */
export function csvRecord(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as string;
    if (i > 0) line += ',';
    line += NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return `${line}\r\n`;
}

/** The export as a byte stream: the header, then every matching submission, newest first. */
export function csvStream(db: Db, envelope: Envelope, form: StoredForm, filter: SubmissionFilter): Readable {
  const fieldIds = form.definition.fields.map((field) => field.id);
  async function* chunks() {
    yield csvRecord([...FIXED_COLUMNS, ...fieldIds].map(guardCell));
    for await (const submissions of exportChunks(db, filter, CHUNK)) {
      let text = '';
      for (const submission of submissions) {
        const answers = hasEncrypted(submission.answers)
          ? await revealAnswers(submission.answers, envelope)
          : revealAnswersInPlace(submission.answers);
        const record = [
          submission.id,
          submission.createdAt,
          submission.status,
          String(submission.read),
          String(submission.starred),
        ];
        // own answers only: a field named `constructor` left blank is not Object.prototype's
        for (const id of fieldIds)
          record.push(guardCell(cellOf(Object.hasOwn(answers, id) ? answers[id] : undefined)));
        text += csvRecord(record);
      }
      if (text !== '') yield text;
    }
  }
  // Readable.from waits for the socket to drain before asking for the next chunk: memory stays flat.
  return Readable.from(chunks(), { objectMode: false });
}

export function sendCsv(reply: FastifyReply, form: StoredForm, stream: Readable): FastifyReply {
  return reply
    .status(200)
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${form.id}-responses.csv"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
