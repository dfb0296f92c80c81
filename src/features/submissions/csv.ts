import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Db } from '../../platform/db/database.js';
import type { StoredForm } from '../forms/repo.js';
import { hasEncrypted, revealAnswers, revealAnswersInPlace } from './pii.js';
import { exportChunks, type SubmissionFilter } from './repo.js';
import type { AnswerValue } from './validator.js';

/**
 * CSV export of a form's submissions (API.md §6.2): RFC 4180 (CRLF, every cell quoted),
 * UTF-8, header `id,createdAt,status,read,starred` then one column per field of the form,
 * values as the owner sees them (masked values masked, encrypted ones decrypted). Rows
 * come from a keyset cursor in chunks and leave through a stream with backpressure, so
 * memory stays flat however many rows match.
 */

export const FIXED_COLUMNS = ['id', 'createdAt', 'status', 'read', 'starred'] as const;

// `=`, `+`, `-`, `@`, tab, CR, and the full-width forms some spreadsheets fold into them.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/**
 * A formula's first character after a separator a spreadsheet may split a line on whatever the
 * quotes say (`,`, `;` as much of Europe's Excel does, `|`, tab, and the full-width comma and
 * semicolon), past the spaces, no-break spaces, tabs and quotes it may drop before a cell's
 * text. Not after a space: that would mark up every "Monday - Friday", and a sheet split on
 * spaces is not one anyone opens an export with. Not after a line break either: every cell is
 * quoted, a quoted line break stays inside its cell, and a list typed one item a line
 * ("- one") would come out marked up.
 */
const FORMULA_AFTER_SEPARATOR = /([,;|\t\uFF0C\uFF1B][ \t\u00A0"]*)(?=[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/g;

/**
 * The formula-injection guard: `'` before a cell that a spreadsheet would run as a formula, and
 * before such a start after a separator inside the cell (`Ann;=1+1` → `Ann;'=1+1`), in case the
 * spreadsheet splits the cell there.
 */
export function guardCell(text: string): string {
  const inner = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return FORMULA_START.test(inner) ? `'${inner}` : inner;
}

/** An answer as one cell: arrays joined with `; `, absent answers empty. */
export function cellOf(value: AnswerValue | undefined): string {
  if (value === undefined || value === null) return '';
  return Array.isArray(value) ? value.join('; ') : String(value);
}

/** Rows read, turned into text and written at a time: one query and one socket write each. */
const CHUNK = 1000;

/**
 * One RFC 4180 record: every cell quoted (quotes doubled), CRLF at the end. Every cell, not only
 * those holding a comma: a spreadsheet set to split on `;` keeps a quoted `Ann;Bob` whole, where
 * unquoted it would be two cells. Written here rather than with csv-stringify because every
 * cell is already a string and this is the export's inner loop: csv-stringify's general
 * machinery took five times as long as the rest of the record's work.
 */
export function csvRecord(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as string;
    if (i > 0) line += ',';
    line += cell.includes('"') ? `"${cell.replaceAll('"', '""')}"` : `"${cell}"`;
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
