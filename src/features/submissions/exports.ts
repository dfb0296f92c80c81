import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/problem.js';
import type { StoredForm } from '../forms/repo.js';
import { csvStream, EXPORT_FORMATS, type ExportFormat, sendExport } from './csv.js';
import { ndjsonStream } from './ndjson.js';
import type { FileLinker } from './presenter.js';
import type { SubmissionFilter } from './repo.js';
import { isOn, type ResponsesQueryInput } from './schemas.js';
import { xlsxStream } from './xlsx.js';

/**
 * `GET /responses?format=csv|xlsx|ndjson` (API.md §6.2, docs/decisions.md "Export formats"):
 * one route, one filter, one access check for every format; `format` picks the writer. A query
 * parameter, as CSV was asked for already, rather than `Accept`: a link in the dashboard (and a
 * URL pasted into a browser or curl) cannot set a header.
 */

/** What GET /responses answers with format=csv. */
export const CsvExport = Type.String({
  description:
    "RFC 4180, UTF-8, every cell quoted: `id,createdAt,status,read,starred,language`, then a column per form field headed by its id (its label with headers=labels; a label two fields share, or a fixed column's name, followed by the id in brackets), then `notes` with notes=1 (oldest first, one a line). With bom=1 the file starts with a UTF-8 byte-order mark. Content-Disposition names the file after the form's title and the day (UTC): an ASCII `filename` and a UTF-8 `filename*`.",
});
/** What GET /responses answers with format=xlsx. */
export const XlsxExport = Type.String({
  format: 'binary',
  description:
    "An Excel workbook of one sheet named after the form: the CSV's header row and rows, in its order, with headers=labels and notes=1 as for the CSV; numbers as numbers, read and starred as booleans, createdAt as a date and time (UTC); text as text, never a formula, so no `'` is put before it.",
});
/** What GET /responses answers with format=ndjson. */
export const NdjsonExport = Type.String({
  description:
    'One JSON object a line, each a response exactly as GET /responses lists it in data[]; UTF-8, every line ended by a line feed; nothing for no responses.',
});
export const EXPORT_CONTENT = {
  'text/csv': CsvExport,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': XlsxExport,
  'application/x-ndjson': NdjsonExport,
};

/** The spreadsheet options and the formats they apply to; anything else is a 400, not silently ignored. */
const OPTION_FORMATS = {
  headers: ['csv', 'xlsx'],
  notes: ['csv', 'xlsx'],
  bom: ['csv'],
} as const satisfies Record<string, readonly ExportFormat[]>;

/** The export format asked for, or undefined for the JSON list; a 400 for a format or option that does not fit. */
export function exportFormatOf(query: ResponsesQueryInput): ExportFormat | undefined {
  const format = query.format;
  if (format !== undefined && !(EXPORT_FORMATS as string[]).includes(format)) {
    const choices = EXPORT_FORMATS.join(', ');
    throw badRequest('invalid_parameter', `format must be one of ${choices} (got "${format}")`, {
      errors: [{ field: 'format', code: 'enum', message: `must be one of ${choices}` }],
    });
  }
  const misplaced = (Object.keys(OPTION_FORMATS) as Array<keyof typeof OPTION_FORMATS>).filter(
    (name) =>
      query[name] !== undefined && !(OPTION_FORMATS[name] as readonly string[]).includes(format ?? ''),
  );
  if (misplaced.length > 0) {
    const errors = misplaced.map((field) => ({
      field,
      code: 'format',
      message: `applies only to format=${OPTION_FORMATS[field].join(' or format=')}`,
    }));
    throw badRequest(
      'invalid_parameter',
      errors.map((error) => `${error.field} ${error.message}`).join('; '),
      { errors },
    );
  }
  return format as ExportFormat | undefined;
}

export function sendResponsesExport(
  reply: FastifyReply,
  context: {
    db: Db;
    envelope: Envelope;
    files: FileLinker & { links: { url(fileId: string): string } };
  },
  form: StoredForm,
  filter: SubmissionFilter,
  format: ExportFormat,
  query: ResponsesQueryInput,
): FastifyReply {
  const { db, envelope, files } = context;
  const fileUrl = (fileId: string) => files.links.url(fileId);
  const options = { labels: query.headers === 'labels', bom: isOn(query.bom), notes: isOn(query.notes) };
  const stream =
    format === 'xlsx'
      ? xlsxStream(db, envelope, form, filter, options, fileUrl)
      : format === 'ndjson'
        ? ndjsonStream(db, envelope, form, filter, files)
        : csvStream(db, envelope, form, filter, options, fileUrl);
  return sendExport(reply, form, format, stream);
}
