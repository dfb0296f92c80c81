import { fileTypeFromBuffer } from 'file-type';
import { extensionOf } from './names.js';

/**
 * A file's type, judged by its bytes (API.md §12): `file-type` reads the signatures of binary
 * formats; what has none is text or unknown bytes, told apart by a look at the first bytes.
 * The client's `Content-Type` is never believed, and the name only names a text file's kind.
 */

/** How many leading bytes the judgement reads (what `file-type` needs for every format it knows). */
export const SNIFF_BYTES = 4100;

export interface DetectedType {
  mime: string;
  /** The extensions a name of this type may carry ('' for none known). */
  extensions: readonly string[];
  /** True when no signature named it: text or unknown bytes. */
  textual: boolean;
}

/** Extensions that name the same type as the one `file-type` gives. */
const SYNONYMS: Record<string, readonly string[]> = {
  jpg: ['jpg', 'jpeg', 'jpe', 'jfif'],
  tif: ['tif', 'tiff'],
  mp4: ['mp4', 'm4v'],
  mov: ['mov', 'qt'],
  mp3: ['mp3'],
  m4a: ['m4a'],
  heic: ['heic', 'heif'],
  xml: ['xml', 'svg'],
};

/** Text files by their name's extension (no signature tells them apart). */
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
  html: 'text/html',
  htm: 'text/html',
  svg: 'image/svg+xml',
  xml: 'application/xml',
  ics: 'text/calendar',
  vcf: 'text/vcard',
  rtf: 'application/rtf',
};

function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    // a multi-byte character may be cut at the end of the sample: allow its first bytes
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, trimToCharacter(head)));
    return true;
  } catch {
    return false;
  }
}

/** The length of `bytes` without a trailing, incomplete UTF-8 sequence. */
function trimToCharacter(bytes: Uint8Array): number {
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    if (byte >= 0xc0) end -= back; // a lead byte whose sequence may be incomplete
    break;
  }
  return end;
}

/** The type of a file from its first bytes (`SNIFF_BYTES` of them, or all when shorter) and its name. */
export async function detectType(head: Uint8Array, name: string): Promise<DetectedType> {
  const found = head.length > 0 ? await fileTypeFromBuffer(head) : undefined;
  const extension = extensionOf(name);
  if (found && !(found.ext === 'xml' && extension === 'svg')) {
    return { mime: found.mime, extensions: SYNONYMS[found.ext] ?? [found.ext], textual: false };
  }
  if (head.length > 0 && looksLikeText(head)) {
    const mime = TEXT_TYPES[extension];
    if (mime) return { mime, extensions: [extension], textual: true };
    return { mime: 'text/plain', extensions: ['txt', 'text', 'log'], textual: true };
  }
  return { mime: 'application/octet-stream', extensions: [], textual: true };
}

/**
 * Whether a file fits a field's `accept` (API.md §12: "judged by the bytes' signature as well as
 * the name"): an entry `.pdf` needs the name to end so and the bytes to be of a type that
 * extension names; an entry `image/*` or `application/pdf` needs the bytes' type to be so, and a
 * name that does not claim another type. Without `accept` any file is taken.
 */
export function fitsAccept(accept: readonly string[] | undefined, name: string, type: DetectedType): boolean {
  if (!accept || accept.length === 0) return true;
  const extension = extensionOf(name);
  // a name that claims another type than the bytes' (an .exe called .jpg) is refused whatever the entry
  const nameAgrees = type.textual ? true : extension === '' || type.extensions.includes(extension);
  if (!nameAgrees) return false;
  return accept.some((entry) => {
    const wanted = entry.toLowerCase();
    if (wanted.startsWith('.')) {
      const wantedExtension = wanted.slice(1);
      if (extension !== wantedExtension) return false;
      return type.textual
        ? TEXT_TYPES[wantedExtension] === type.mime
        : type.extensions.includes(wantedExtension);
    }
    if (wanted.endsWith('/*')) return type.mime.startsWith(wanted.slice(0, -1));
    return type.mime === wanted;
  });
}
