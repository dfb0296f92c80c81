/**
 * Which of a form's languages a request gets (API.md §13): `?lang=` when the form has it, else
 * the best match of `Accept-Language` among them, else the form's own. `Accept-Language` is
 * read defensively: a header of any length gives at most its first `MAX_RANGES` ranges, a range
 * with a malformed or out-of-range q-value is skipped, and nothing in it can throw.
 */

export const MAX_ACCEPT_LANGUAGE_LENGTH = 4096;
export const MAX_RANGES = 50;

export interface LanguageRange {
  range: string;
  q: number;
}

const RANGE = /^(\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)$/;
const QUALITY = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

/** The ranges of an `Accept-Language` header, best first (ties in the header's order); q=0 ranges left out. */
export function parseAcceptLanguage(header: string | undefined): LanguageRange[] {
  if (!header) return [];
  const ranges: LanguageRange[] = [];
  for (const item of header.slice(0, MAX_ACCEPT_LANGUAGE_LENGTH).split(',', MAX_RANGES)) {
    const [range = '', ...params] = item.split(';').map((part) => part.trim());
    if (!RANGE.test(range)) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const match = QUALITY.exec(param);
      if (match) q = Number(match[1]);
      else if (/^q=/i.test(param)) valid = false;
    }
    if (valid && q > 0) ranges.push({ range: range.toLowerCase(), q });
  }
  return ranges
    .map((entry, i) => ({ entry, i }))
    .sort((a, b) => b.entry.q - a.entry.q || a.i - b.i)
    .map(({ entry }) => entry);
}

/** `available` (tags) as given, keyed by their lower case. */
const lowered = (available: readonly string[]) => new Map(available.map((tag) => [tag.toLowerCase(), tag]));

/**
 * The best of `available` for the header: for each range, best first, the tag itself, else a
 * tag it is a prefix of (`de` takes `de-CH`), else a tag that is a prefix of it (`de-AT` takes
 * `de`); `*` takes the first available. Undefined when nothing matches.
 */
export function bestLanguage(available: readonly string[], header: string | undefined): string | undefined {
  const tags = lowered(available);
  for (const { range } of parseAcceptLanguage(header)) {
    if (range === '*') return available[0];
    const exact = tags.get(range);
    if (exact) return exact;
    for (const [lower, tag] of tags) if (lower.startsWith(`${range}-`)) return tag;
    const parts = range.split('-');
    for (let n = parts.length - 1; n > 0; n -= 1) {
      const prefix = tags.get(parts.slice(0, n).join('-'));
      if (prefix) return prefix;
    }
  }
  return undefined;
}

/** `?lang=` when it names one of `available` (letter case aside), else undefined. */
export function requestedLanguage(available: readonly string[], lang: unknown): string | undefined {
  if (typeof lang !== 'string' || lang.length === 0 || lang.length > 100) return undefined;
  return lowered(available).get(lang.toLowerCase());
}

/** The language of a page or view: `?lang=`, else `Accept-Language`, else the first of `available` (the form's own). */
export function chooseLanguage(
  available: readonly string[],
  request: { lang?: unknown; acceptLanguage?: string | undefined },
): string {
  return (
    requestedLanguage(available, request.lang) ??
    bestLanguage(available, request.acceptLanguage) ??
    available[0] ??
    'en'
  );
}
