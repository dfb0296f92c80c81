import { once } from 'node:events';
import { Readable } from 'node:stream';
import { crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';
import { type AsyncFlateStreamHandler, type FlateError, Zip, ZipDeflate, type ZipInputFile } from 'fflate';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Db } from '../../platform/db/database.js';
import type { StoredForm } from '../forms/repo.js';
import { type CsvOptions, cellOf, FIXED_COLUMNS, fieldHeaders, PLAIN_CSV } from './csv.js';
import { exportChunks } from './export-chunks.js';
import { hasEncrypted, revealAnswers, revealAnswersInPlace } from './pii.js';
import { notesOf, type StoredNote, type SubmissionFilter } from './repo.js';

/**
 * The export as an Excel workbook (API.md §6.2, docs/decisions.md "XLSX export"): the CSV's
 * rows, columns, PII rules and file links, in one sheet named after the form, with a frozen
 * header row and typed cells: numbers as numbers, `read`/`starred` as booleans, `createdAt`
 * as a date. The SpreadsheetML is written here and framed by fflate's streaming `Zip`, one
 * chunk of rows at a time, so memory stays flat however many rows match; the sheet itself is
 * deflated by Node's zlib (`NativeDeflateEntry`).
 *
 * No formula-injection guard as the CSV has (`guardCell`): every text is an inline string cell
 * (`t="inlineStr"`), which a spreadsheet shows as text and never evaluates, so `=cmd|' /C calc'!A0`
 * is written as it was typed, without the `'` the CSV needs.
 */

/** A cell's value as typed in the sheet; undefined leaves the cell out. */
type CellValue = string | number | boolean | Date | undefined;

/** Excel refuses a cell of more text than this; the rest would make it "repair" the file. */
const MAX_CELL_TEXT = 32_767;

// Characters XML 1.0 cannot hold at all (the controls but tab and line ends, U+FFFE, U+FFFF, and lone surrogates).
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_SPECIAL = /[&<>"]/g;
const XML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Excel reads `_x0041_` in a string as "A": such a run is written `_x005F_x0041_` to stay as typed. */
const EXCEL_ESCAPE = /_(x[0-9A-Fa-f]{4}_)/g;

/** Anything `xmlText` would change: most answers hold none of it and are taken as they are. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are among what it looks for
const NEEDS_WORK = /[\u0000-\u001F&<>"_\uD800-\uDFFF\uFFFE\uFFFF]/;

export function xmlText(text: string): string {
  if (text.length <= MAX_CELL_TEXT && !NEEDS_WORK.test(text)) return text;
  let kept = text.replace(NOT_XML, '');
  if (kept.length > MAX_CELL_TEXT) {
    // not across a surrogate pair
    const end = /[\uD800-\uDBFF]/.test(kept[MAX_CELL_TEXT - 1] ?? '') ? MAX_CELL_TEXT - 1 : MAX_CELL_TEXT;
    kept = kept.slice(0, end);
  }
  return kept.replace(EXCEL_ESCAPE, '_x005F_$1').replace(XML_SPECIAL, (c) => XML_ENTITY[c] as string);
}

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Days since 1899-12-30, Excel's serial date (UTC: the export's timestamps are UTC). */
function excelSerial(date: Date): number {
  return date.getTime() / 86_400_000 + 25_569;
}

/** Style 1 of styles.xml: a date and time as the CSV's ISO timestamp reads, to the second. */
const DATE_STYLE = 1;

function cellXml(reference: string, value: CellValue): string {
  if (value === undefined || value === '') return '';
  if (typeof value === 'number') return `<c r="${reference}"><v>${value}</v></c>`;
  if (typeof value === 'boolean') return `<c r="${reference}" t="b"><v>${value ? 1 : 0}</v></c>`;
  if (value instanceof Date) return `<c r="${reference}" s="${DATE_STYLE}"><v>${excelSerial(value)}</v></c>`;
  return `<c r="${reference}" t="inlineStr"><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
}

function rowXml(number: number, columns: readonly string[], values: readonly CellValue[]): string {
  let cells = '';
  for (let i = 0; i < values.length; i++) cells += cellXml(`${columns[i]}${number}`, values[i]);
  return `<row r="${number}">${cells}</row>`;
}

/** An answer as a typed cell: a number stays a number, a yes/no a boolean, the rest as the CSV writes it. */
function answerCell(value: unknown, fileUrl?: (fileId: string) => string): CellValue {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'boolean') return value;
  if (value === undefined || value === null) return undefined;
  return cellOf(value as Parameters<typeof cellOf>[0], fileUrl);
}

// A sheet name may not hold these, nor be longer than 31 characters, nor start or end with '.
const NOT_IN_SHEET_NAME = /[[\]:*?/\\]/g;

/** The sheet's name: the form's title as far as Excel allows one, else "Responses". */
export function sheetName(title: string): string {
  const cut = [...title.replace(NOT_IN_SHEET_NAME, ' ').replace(/\s+/g, ' ').trim()].slice(0, 31).join('');
  const name = cut.replace(/^'+|'+$/g, '').trim();
  // "History" is reserved by Excel
  return name === '' || name.toLowerCase() === 'history' ? 'Responses' : name;
}

/**
 * Rows a sheet holds, its header row included: Excel's own limit. An export of more goes on in
 * the next sheet (`Responses (2)`…), each with the header row again, so a workbook of any size
 * opens whole in Excel, and each sheet stays far under the 4 GiB a zip entry without ZIP64 may
 * hold (a million rows of ten short answers is about 0.9 GB).
 */
export const MAX_SHEET_ROWS = 1_048_576;

/** The name of the workbook's `n`th sheet (from 1): the form's, then `… (2)`, cut to fit 31 characters. */
export function nthSheetName(title: string, n: number): string {
  const name = sheetName(title);
  if (n === 1) return name;
  const suffix = ` (${n})`;
  return `${[...name]
    .slice(0, 31 - suffix.length)
    .join('')
    .trimEnd()}${suffix}`;
}

/** The workbook's parts but its sheets: written after them, when their number is known. */
function workbookParts(form: StoredForm, sheets: number): Array<[string, string]> {
  const numbers = Array.from({ length: sheets }, (_, i) => i + 1);
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return [
    [
      '[Content_Types].xml',
      `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        numbers
          .map(
            (n) =>
              `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
          )
          .join('') +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${xml}<workbook xmlns="${main}" xmlns:r="${rel}"><sheets>` +
        numbers
          .map((n) => `<sheet name="${xmlText(nthSheetName(form.title, n))}" sheetId="${n}" r:id="rId${n}"/>`)
          .join('') +
        '</sheets></workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        numbers
          .map(
            (n) => `<Relationship Id="rId${n}" Type="${rel}/worksheet" Target="worksheets/sheet${n}.xml"/>`,
          )
          .join('') +
        `<Relationship Id="rId${sheets + 1}" Type="${rel}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      'xl/styles.xml',
      `${xml}<styleSheet xmlns="${main}">` +
        '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
        '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
        '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
        '</styleSheet>',
    ],
  ];
}

/** The largest entry a zip without ZIP64 can say the size of. */
const ZIP32_LIMIT = 0xffff_ffff;

/**
 * A zip entry deflated by Node's zlib, for fflate's `Zip` to frame (its own deflate is JavaScript:
 * on a 100,000-row sheet it took 14 times as long as zlib, most of the export's time). Sizes and
 * CRC are counted as bytes go in; `Zip` reads them when the entry ends (a data descriptor).
 */
class NativeDeflateEntry implements ZipInputFile {
  size = 0;
  crc = 0;
  readonly compression = 8;
  ondata?: AsyncFlateStreamHandler;
  private readonly deflater: DeflateRaw;

  constructor(
    readonly filename: string,
    level: number,
  ) {
    this.deflater = createDeflateRaw({ level });
    this.deflater.on('data', (data: Uint8Array<ArrayBuffer>) => this.ondata?.(null, data, false));
    this.deflater.on('end', () => this.ondata?.(null, new Uint8Array(0), true));
    this.deflater.on('error', (error) => this.ondata?.(error as FlateError, new Uint8Array(0), false));
  }

  /** Resolves once zlib can take more: a slow socket holds the export here, not in memory. */
  async write(bytes: Buffer): Promise<void> {
    this.size += bytes.length;
    // fflate writes no ZIP64: past 4 GiB the sizes would wrap and the file would open broken, so
    // the download fails instead, visibly (docs/decisions.md "Export formats", known limit)
    if (this.size > ZIP32_LIMIT)
      throw new Error(`${this.filename} passed 4 GiB: too large for a workbook without ZIP64`);
    this.crc = crc32(bytes, this.crc);
    if (!this.deflater.write(bytes)) await once(this.deflater, 'drain');
  }

  async end(): Promise<void> {
    const ended = once(this.deflater, 'end');
    this.deflater.end();
    await ended;
  }

  terminate(): void {
    this.deflater.destroy();
  }
}

/** The workbook as a byte stream: the header row, then every matching submission, newest first. */
export function xlsxStream(
  db: Db,
  envelope: Envelope,
  form: StoredForm,
  filter: SubmissionFilter,
  options: Pick<CsvOptions, 'labels' | 'notes'> = PLAIN_CSV,
  fileUrl?: (fileId: string) => string,
  /** Rows a sheet holds (tests make it small). */
  sheetRows = MAX_SHEET_ROWS,
): Readable {
  const fieldIds = form.definition.fields.map((field) => field.id);
  const header = [
    ...FIXED_COLUMNS,
    ...fieldHeaders(form, { ...PLAIN_CSV, ...options }),
    ...(options.notes ? ['notes'] : []),
  ];
  const columns = header.map((_, i) => columnName(i));

  async function* bytes() {
    // what the zip has framed so far, handed on between the steps below
    const pending: Uint8Array[] = [];
    let failure: Error | null = null;
    let finished = false;
    const zip = new Zip((error, data, final) => {
      if (error) failure = error;
      else if (data.length > 0) pending.push(data);
      if (final) finished = true;
    });
    function* drain() {
      if (failure) throw failure;
      if (pending.length > 0) yield Buffer.concat(pending.splice(0));
    }
    let sheet: NativeDeflateEntry | undefined;
    let sheets = 0;
    /** The row number the current sheet's last row has (1: its header alone). */
    let rowNumber = 0;
    async function startSheet() {
      sheets += 1;
      // level 1: the sheets are most of the bytes and deflating them most of the time; level 6 saves little more
      sheet = new NativeDeflateEntry(`xl/worksheets/sheet${sheets}.xml`, 1);
      zip.add(sheet);
      await sheet.write(
        Buffer.from(
          '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
            '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
            '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
            `<sheetData>${rowXml(1, columns, header)}`,
        ),
      );
      rowNumber = 1;
    }
    async function endSheet(current: NativeDeflateEntry) {
      await current.write(Buffer.from('</sheetData></worksheet>'));
      await current.end();
    }
    try {
      await startSheet();
      yield* drain();
      for await (const submissions of exportChunks(db, filter)) {
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
          if (rowNumber >= sheetRows) {
            // the sheet is full: what it has, then the next sheet with its header row
            const full = sheet as NativeDeflateEntry;
            if (text !== '') await full.write(Buffer.from(text));
            text = '';
            await endSheet(full);
            await startSheet();
            yield* drain();
          }
          const answers = hasEncrypted(submission.answers)
            ? await revealAnswers(submission.answers, envelope)
            : revealAnswersInPlace(submission.answers);
          const values: CellValue[] = [
            submission.id,
            new Date(submission.createdAt),
            submission.status,
            submission.read,
            submission.starred,
            submission.language ?? undefined,
          ];
          for (const id of fieldIds)
            values.push(answerCell(Object.hasOwn(answers, id) ? answers[id] : undefined, fileUrl));
          if (options.notes)
            values.push((notes.get(submission.id) ?? []).map((note) => note.text).join('\n'));
          rowNumber++;
          text += rowXml(rowNumber, columns, values);
        }
        if (text !== '') {
          await (sheet as NativeDeflateEntry).write(Buffer.from(text));
          yield* drain();
        }
      }
      await endSheet(sheet as NativeDeflateEntry);
      // the workbook's other parts after its sheets: only now is their number known (a zip's
      // directory, at its end, is what readers go by, not the order of its entries)
      for (const [name, text] of workbookParts(form, sheets)) {
        const part = new ZipDeflate(name, { level: 6 });
        zip.add(part);
        part.push(Buffer.from(text), true);
      }
      zip.end();
      if (!finished) throw new Error('the workbook did not end');
      yield* drain();
    } finally {
      // a client gone mid-export: no zlib stream left open
      if (!finished) sheet?.terminate();
    }
  }
  // Readable.from asks for the next chunk only once the socket has taken the last: memory stays flat.
  return Readable.from(bytes(), { objectMode: false });
}
