import type { MessageId, Words } from './i18n/words.js';

/**
 * The kinds of file a file field's `accept` takes, in a page's or a request's words ("PDF or
 * images", "PDF oder Bilder"): said by the field's hint, the page script's checks and the
 * server's refusal alike, each in its own language.
 */

/** Media types people know by another name than their subtype: a name, or a message of the catalogue. */
const TYPE_WORDS: Readonly<Record<string, string | { say: MessageId }>> = {
  'application/pdf': 'PDF',
  'application/msword': { say: 'kindWord' },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { say: 'kindWord' },
  'application/vnd.ms-excel': { say: 'kindExcel' },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { say: 'kindExcel' },
  'application/vnd.oasis.opendocument.text': 'ODT',
  'application/zip': 'ZIP',
  'text/plain': { say: 'kindPlainText' },
  'image/jpeg': 'JPEG',
  'image/svg+xml': 'SVG',
  'image/*': { say: 'kindImages' },
  'video/*': { say: 'kindVideos' },
  'audio/*': { say: 'kindAudio' },
  'text/*': { say: 'kindText' },
};

/** One `accept` entry as a person reads it: `.pdf` and `application/pdf` are both "PDF". */
function entryInWords(entry: string, words: Words): string {
  const wanted = entry.trim().toLowerCase();
  const known = TYPE_WORDS[wanted];
  if (known) return typeof known === 'string' ? known : words.say(known.say);
  if (wanted.startsWith('.')) return wanted.slice(1).toUpperCase();
  const [type = '', subtype = ''] = wanted.split('/');
  if (subtype === '*') return words.say('kindOther', { type });
  // image/png → PNG; a long or dotted subtype (vnd.…) is clearer as the media type itself
  return /^[a-z0-9]{1,5}$/.test(subtype) ? subtype.toUpperCase() : wanted;
}

/** "PDF", "PDF or images", "PNG, JPEG or PDF": the kinds of file `accept` takes, each said once, in the page's language. */
export function acceptInWords(accept: readonly string[], words: Words): string {
  const kinds = [...new Set(accept.map((entry) => entryInWords(entry, words)))];
  if (kinds.length <= 1) return kinds[0] ?? '';
  return new Intl.ListFormat(words.lang, { type: 'disjunction' }).format(kinds);
}
