/**
 * A file field's rules as the builder edits them (API.md §12; pure, unit-tested): the largest
 * file typed in megabytes and stored in bytes, and `accept` offered as a few kinds of file a
 * person recognises ("PDF", "Images") beside the entries typed by hand.
 *
 * An `accept` entry is an extension (`.pdf`) or a media type (`image/*`, `application/pdf`);
 * a file is taken when any entry matches it, by its name or by its type (the rules of HTML's
 * `accept` attribute, shared/file-rules.ts). A preset therefore lists a kind's extensions as well
 * as its media types: the file picker offers the right files, and a type judged from the bytes
 * or one judged from the name both match.
 */

/** One megabyte as the builder means it: 2^20 bytes, as `sizeInWords` (shared/messages.ts) says "MB". */
export const MEGABYTE = 1024 * 1024;
/** A file field's largest file when none is set (API.md §12): 10 MB. */
export const DEFAULT_MAX_FILE_SIZE = 10 * MEGABYTE;
/** How many files one answer may hold at most (API.md §12). */
export const MOST_FILES = 20;

/** Bytes shown in megabytes: at most two decimals, no trailing zeros ("10", "0.5", "1.25"). */
export function megabytesOf(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  return String(Math.round((bytes / MEGABYTE) * 100) / 100);
}

/**
 * What was typed in megabytes, as the field stores it: `bytes` (undefined when blank: the
 * default), or a `problem` in words when it is no size at all. A size the instance does not
 * allow (over its FILE_MAX_BYTES) is the server's to refuse: only it knows the limit.
 */
export function bytesOfMegabytes(text: string): { bytes: number | undefined; problem?: string } {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { bytes: undefined };
  const megabytes = Number(trimmed);
  if (!Number.isFinite(megabytes))
    return { bytes: undefined, problem: 'Type a number of megabytes, such as 5' };
  const bytes = Math.round(megabytes * MEGABYTE);
  if (bytes < 1) return { bytes: undefined, problem: 'Type a size above 0 MB' };
  return { bytes };
}

export interface AcceptPreset {
  key: string;
  /** The words its tick shows. */
  name: string;
  entries: readonly string[];
}

const PDF = ['.pdf', 'application/pdf'];
const WORD = [
  '.doc',
  'application/msword',
  '.docx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.odt',
  'application/vnd.oasis.opendocument.text',
];
const TEXT = ['.txt', 'text/plain', '.rtf', 'application/rtf'];

/** The kinds of file offered by a tick each, in the order shown. A preset may hold another whole (Documents holds PDF). */
export const ACCEPT_PRESETS: readonly AcceptPreset[] = [
  { key: 'pdf', name: 'PDF', entries: PDF },
  { key: 'images', name: 'Images', entries: ['image/*'] },
  { key: 'documents', name: 'Documents (PDF, Word, text)', entries: [...PDF, ...WORD, ...TEXT] },
  {
    key: 'spreadsheets',
    name: 'Spreadsheets (Excel, CSV)',
    entries: [
      '.xls',
      'application/vnd.ms-excel',
      '.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      '.ods',
      'application/vnd.oasis.opendocument.spreadsheet',
      '.csv',
      'text/csv',
    ],
  },
  { key: 'audio', name: 'Audio', entries: ['audio/*'] },
  { key: 'video', name: 'Video', entries: ['video/*'] },
  { key: 'archives', name: 'ZIP archives', entries: ['.zip', 'application/zip'] },
];

/** Entries compared as the server reads them: letter case never matters (shared/file-rules.ts `acceptsFile`). */
const same = (entry: string) => entry.trim().toLowerCase();
const holds = (accept: readonly string[], entries: readonly string[]) => {
  const present = new Set(accept.map(same));
  return entries.every((entry) => present.has(same(entry)));
};

/**
 * How a preset's tick shows for an `accept` list: `on` (all its entries are there), `off`, or
 * `within` another ticked preset that holds it whole (PDF within Documents: shown ticked and
 * not to be unticked on its own, as unticking it would take PDF from Documents too).
 */
export type PresetState = { state: 'on' | 'off' } | { state: 'within'; by: AcceptPreset };

export function presetStates(accept: readonly string[]): Map<string, PresetState> {
  const on = ACCEPT_PRESETS.filter((preset) => holds(accept, preset.entries));
  return new Map(
    ACCEPT_PRESETS.map((preset): [string, PresetState] => {
      if (!on.includes(preset)) return [preset.key, { state: 'off' }];
      const by = on.find(
        (other) =>
          other !== preset &&
          other.entries.length > preset.entries.length &&
          holds(other.entries, preset.entries),
      );
      return [preset.key, by ? { state: 'within', by } : { state: 'on' }];
    }),
  );
}

/** The entries no ticked preset covers: what the "other types" box shows. */
export function otherEntries(accept: readonly string[]): string[] {
  const covered = new Set(
    ACCEPT_PRESETS.filter((preset) => holds(accept, preset.entries)).flatMap((preset) =>
      preset.entries.map(same),
    ),
  );
  return accept.filter((entry) => !covered.has(same(entry)));
}

/** `accept` as the field stores it: no entry twice (in any letter case), none at all as undefined (any file). */
function stored(entries: readonly string[]): string[] | undefined {
  const seen = new Set<string>();
  const kept = entries.filter((entry) => {
    const key = same(entry);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return kept.length > 0 ? kept : undefined;
}

/**
 * `accept` with a preset ticked (its entries added after those there) or unticked (its entries
 * taken out, and so any preset holding them is unticked too; entries typed by hand stay).
 */
export function withPreset(accept: readonly string[], key: string, ticked: boolean): string[] | undefined {
  const preset = ACCEPT_PRESETS.find((candidate) => candidate.key === key);
  if (!preset) return stored(accept);
  if (ticked) return stored([...accept, ...preset.entries]);
  const others = new Set(otherEntries(accept).map(same));
  const leaving = new Set(preset.entries.map(same));
  // what stays ticked after: presets still whole without the leaving entries
  const staying = ACCEPT_PRESETS.filter(
    (other) => holds(accept, other.entries) && !other.entries.some((entry) => leaving.has(same(entry))),
  );
  const keep = new Set([...others, ...staying.flatMap((other) => other.entries.map(same))]);
  return stored(accept.filter((entry) => keep.has(same(entry))));
}

/**
 * The form an entry must have (forms/schemas.ts `ACCEPT_PATTERN`, which a unit test holds this
 * equal to): an extension, or a media type whose subtype may be `*`.
 */
export const ACCEPT_ENTRY =
  /^(\.[A-Za-z0-9][A-Za-z0-9._+-]{0,30}|[a-z0-9][a-z0-9!#$&^_.+-]{0,62}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126}))$/;

/**
 * The "other types" box read: entries split by commas or spaces, a bare word taken as an
 * extension ("heic" → ".heic"), a media type in lower case; what is neither is a problem named
 * in words, and left out of `entries`.
 */
export function parseOtherEntries(text: string): { entries: string[]; problem?: string } {
  const entries: string[] = [];
  const wrong: string[] = [];
  for (const word of text.split(/[\s,;]+/)) {
    if (word === '') continue;
    const entry = word.includes('/') ? word.toLowerCase() : word.startsWith('.') ? word : `.${word}`;
    if (ACCEPT_ENTRY.test(entry) && entry.length <= 100) entries.push(entry);
    else wrong.push(`“${word}”`);
  }
  if (wrong.length === 0) return { entries };
  return {
    entries,
    problem: `${wrong.join(', ')} ${wrong.length === 1 ? 'is' : 'are'} neither an extension like .heic nor a type like image/png`,
  };
}

/** `accept` with the typed entries in place of the others: the ticked presets' entries kept, then those typed. */
export function withOtherEntries(accept: readonly string[], typed: readonly string[]): string[] | undefined {
  const others = new Set(otherEntries(accept).map(same));
  return stored([...accept.filter((entry) => !others.has(same(entry))), ...typed]);
}

/** The entries as the box shows them: one line, comma-separated. */
export const entriesText = (entries: readonly string[]): string => entries.join(', ');
