import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Db } from '../../platform/db/database.js';
import type { StoredForm } from '../forms/repo.js';
import { exportChunks } from './export-chunks.js';
import { hasEncrypted, isFileAnswer, revealAnswers, revealAnswersInPlace } from './pii.js';
import { notesOf, type StoredNote, type SubmissionFilter } from './repo.js';
import type { AnswerValue } from './validator.js';

/**
 * CSV export of a form's submissions (API.md §6.2): RFC 4180 (CRLF, every cell quoted),
 * UTF-8, header `id,createdAt,status,read,starred,language` then one column per field of the form,
 * values as the owner sees them (masked values masked, encrypted ones decrypted). Rows
 * come in chunks (export-chunks.ts) and leave through a stream with backpressure, so
 * memory stays flat however many rows match. For people opening it in a spreadsheet
 * (`CsvOptions`): the fields' labels as headers, a byte-order mark, a `notes` column; the
 * file is named after the form's title and the day (`csvFileName`).
 */

/** The export's options (API.md §6.2): what the dashboard's "Export" asks for, all on. */
export interface CsvOptions {
  /** Head the field columns with their labels rather than their ids. */
  labels: boolean;
  /** Start with U+FEFF: without it Excel reads UTF-8 as the system's code page and garbles "café". */
  bom: boolean;
  /** A last column `notes`: each response's notes, oldest first, one per line. */
  notes: boolean;
}

export const PLAIN_CSV: CsvOptions = { labels: false, bom: false, notes: false };

export const FIXED_COLUMNS = ['id', 'createdAt', 'status', 'read', 'starred', 'language'] as const;

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
const SEPARATORS = ',;|\\t\\uFF0C\\uFF1B';
const FORMULA_AFTER_SEPARATOR = new RegExp(
  `([${SEPARATORS}][ \\t\\u00A0"]*)(?=[=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20])`,
  'g',
);
/** Any of the separators: without one, `FORMULA_AFTER_SEPARATOR` has nothing to replace. */
const SEPARATOR = new RegExp(`[${SEPARATORS}]`);

/**
 * The formula-injection guard: `'` before a cell that a spreadsheet would run as a formula, and
 * before such a start after a separator inside the cell (`Ann;=1+1` → `Ann;'=1+1`), in case the
 * spreadsheet splits the cell there.
 */
export function guardCell(text: string): string {
  // Most cells hold no separator at all (dates, ids, names, choices): no replace to run. The
  // export's inner loop: the global replace on every cell was 9–12 % of a PostgreSQL export's CPU.
  const inner = SEPARATOR.test(text) ? text.replace(FORMULA_AFTER_SEPARATOR, "$1'") : text;
  return FORMULA_START.test(inner) ? `'${inner}` : inner;
}

/**
 * An answer as one cell: arrays joined with `; `, absent answers empty; a file answer as
 * `name <url>` for each file (API.md §12: the signed link; a hashed file, which has none, by its name alone).
 */
export function cellOf(value: AnswerValue | undefined, fileUrl?: (fileId: string) => string): string {
  if (value === undefined || value === null) return '';
  if (isFileAnswer(value)) {
    return value
      .map((file) => (file.id && fileUrl ? `${file.name} <${fileUrl(file.id)}>` : file.name))
      .join('; ');
  }
  return Array.isArray(value) ? value.join('; ') : String(value);
}

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

/**
 * The field columns' headers: ids, or labels. Two fields with one label (or a label that is a
 * fixed column's name) would make columns a reader cannot tell apart: those say their id too.
 */
export function fieldHeaders(form: StoredForm, options: CsvOptions): string[] {
  const fields = form.definition.fields;
  if (!options.labels) return fields.map((field) => field.id);
  const taken = new Map<string, number>();
  const reserved = new Set<string>([...FIXED_COLUMNS, ...(options.notes ? ['notes'] : [])]);
  for (const field of fields) taken.set(field.label, (taken.get(field.label) ?? 0) + 1);
  return fields.map((field) =>
    (taken.get(field.label) ?? 0) > 1 || reserved.has(field.label)
      ? `${field.label} (${field.id})`
      : field.label,
  );
}

/**
 * A response's notes as one cell: oldest first, one per line (the cell is quoted, so lines are
 * kept), each guarded on its own, as it would be as a cell of its own in a spreadsheet.
 */
function notesCell(notes: readonly StoredNote[] | undefined): string {
  return notes ? notes.map((note) => guardCell(note.text)).join('\n') : '';
}

/** The export as a byte stream: the header, then every matching submission, newest first. */
export function csvStream(
  db: Db,
  envelope: Envelope,
  form: StoredForm,
  filter: SubmissionFilter,
  options: CsvOptions = PLAIN_CSV,
  fileUrl?: (fileId: string) => string,
): Readable {
  const fieldIds = form.definition.fields.map((field) => field.id);
  async function* chunks() {
    const header = [...FIXED_COLUMNS, ...fieldHeaders(form, options), ...(options.notes ? ['notes'] : [])];
    yield (options.bom ? '\uFEFF' : '') + csvRecord(header.map(guardCell));
    for await (const submissions of exportChunks(db, filter)) {
      // one query a chunk: the notes of its responses, grouped by response
      const notes = new Map<string, StoredNote[]>();
      if (options.notes) {
        for (const note of await notesOf(
          db,
          submissions.map((submission) => submission.id),
        )) {
          const list = notes.get(note.submissionId);
          if (list) list.push(note);
          else notes.set(note.submissionId, [note]);
        }
      }
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
          guardCell(submission.language ?? ''),
        ];
        // own answers only: a field named `constructor` left blank is not Object.prototype's
        for (const id of fieldIds)
          record.push(guardCell(cellOf(Object.hasOwn(answers, id) ? answers[id] : undefined, fileUrl)));
        if (options.notes) record.push(guardCell(notesCell(notes.get(submission.id))));
        text += csvRecord(record);
      }
      if (text !== '') yield text;
    }
  }
  // Readable.from waits for the socket to drain before asking for the next chunk: memory stays flat.
  return Readable.from(chunks(), { objectMode: false });
}

/** Characters no file name may hold on some system (Windows is the strictest), and control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const UNSAFE_IN_NAME = /[<>:"/\\|?*\u0000-\u001f\u007f]+/g;
/** Names Windows keeps for devices, whatever the extension. */
const RESERVED_NAME = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
/** Room for the date and extension within the 255 bytes most file systems allow. */
const TITLE_CHARACTERS = 100;

/**
 * The download's name: the form's title and the day, `Event sign-up 2026-11-25.csv`, safe on
 * every system: characters a file system refuses become `-`, spaces are collapsed, no leading
 * or trailing dots or spaces, no device name, at most 100 characters of title. `ascii` is the
 * fallback for the plain `filename=` (accents taken off, anything else non-ASCII gone).
 */
export function csvFileName(
  title: string,
  day: string,
  extension = 'csv',
): { unicode: string; ascii: string } {
  const tidy = (text: string) => {
    const cut = [...text.replace(/\s+/g, ' ').replace(UNSAFE_IN_NAME, '-').trim()]
      .slice(0, TITLE_CHARACTERS)
      .join('');
    const name = cut.replace(/^[.\s-]+|[.\s]+$/g, '');
    return name === '' || RESERVED_NAME.test(name) ? `responses${name === '' ? '' : ` ${name}`}` : name;
  };
  const unicode = tidy(title.normalize('NFC'));
  const ascii = tidy(
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]+/g, ' '),
  );
  return { unicode: `${unicode} ${day}.${extension}`, ascii: `${ascii} ${day}.${extension}` };
}

/** RFC 6266 with RFC 8187: the ASCII name for every client, the UTF-8 one for those that read it. */
export function contentDisposition(title: string, day: string, extension = 'csv'): string {
  const { unicode, ascii } = csvFileName(title, day, extension);
  const encoded = encodeURIComponent(unicode).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** How each export format is served: its media type and its file's extension. */
export const EXPORT_MEDIA = {
  csv: { type: 'text/csv; charset=utf-8', extension: 'csv' },
  xlsx: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
  ndjson: { type: 'application/x-ndjson; charset=utf-8', extension: 'ndjson' },
} as const;
export type ExportFormat = keyof typeof EXPORT_MEDIA;
export const EXPORT_FORMATS = Object.keys(EXPORT_MEDIA) as ExportFormat[];

export function sendExport(
  reply: FastifyReply,
  form: StoredForm,
  format: ExportFormat,
  stream: Readable,
  now = new Date(),
): FastifyReply {
  const { type, extension } = EXPORT_MEDIA[format];
  return (
    reply
      .status(200)
      .type(type)
      // the day the export was made (UTC), as the file in a downloads folder should say
      .header(
        'content-disposition',
        contentDisposition(form.title, now.toISOString().slice(0, 10), extension),
      )
      .header('cache-control', 'no-store')
      .send(stream)
  );
}
