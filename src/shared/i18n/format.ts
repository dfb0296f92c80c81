import { keptPerKey } from '../memo.js';
/**
 * ICU MessageFormat, the part Intake's catalogue uses: `{arg}`, `{arg, number}`,
 * `{arg, plural, =0 {…} one {…} other {…}}` with `#`, and apostrophe quoting. Plural categories
 * come from `Intl.PluralRules`, numbers from `Intl.NumberFormat`. A few hundred bytes, so the
 * hosted page's script can say the same words as the server without a 10 kB library; the
 * catalogue's test holds its output equal to `intl-messageformat`'s for every message of every
 * language (decisions.md).
 */

export type MessageValues = Readonly<Record<string, string | number>>;

type Part =
  | string
  | { arg: string; number?: true }
  | { arg: string; plural: Record<string, Part[]> }
  | { pound: true };

const parsed = new Map<string, Part[]>();

function parse(source: string): Part[] {
  let at = 0;
  const until = (stops: string) => {
    const start = at;
    while (at < source.length && !stops.includes(source[at] ?? '')) at += 1;
    return source.slice(start, at).trim();
  };
  const skipSpace = () => {
    while (/\s/.test(source[at] ?? '')) at += 1;
  };
  function parts(inPlural: boolean): Part[] {
    const out: Part[] = [];
    let text = '';
    const flush = () => {
      if (text) out.push(text);
      text = '';
    };
    while (at < source.length) {
      const c = source[at] ?? '';
      if (c === "'") {
        const next = source[at + 1] ?? '';
        if (next === "'") {
          text += "'";
          at += 2;
        } else if (next === '{' || next === '}' || (inPlural && next === '#')) {
          const end = source.indexOf("'", at + 1);
          const stop = end < 0 ? source.length : end;
          text += source.slice(at + 1, stop);
          at = stop + 1;
        } else {
          text += c;
          at += 1;
        }
      } else if (c === '{') {
        flush();
        at += 1;
        const arg = until(',}');
        if (source[at] === '}') {
          at += 1;
          out.push({ arg });
          continue;
        }
        at += 1;
        const kind = until(',}');
        if (kind === 'plural') {
          at += 1;
          const plural: Record<string, Part[]> = {};
          skipSpace();
          while (at < source.length && source[at] !== '}') {
            const key = until('{').trim();
            at += 1;
            plural[key] = parts(true);
            at += 1;
            skipSpace();
          }
          at += 1;
          out.push({ arg, plural });
        } else {
          // `{n, number}` (a style, when given, is not used by the catalogue)
          until('}');
          at += 1;
          out.push({ arg, number: true });
        }
      } else if (c === '}') {
        break;
      } else if (c === '#' && inPlural) {
        flush();
        out.push({ pound: true });
        at += 1;
      } else {
        text += c;
        at += 1;
      }
    }
    flush();
    return out;
  }
  return parts(false);
}

/**
 * One formatter per language, made once: building an `Intl.NumberFormat` or `Intl.PluralRules`
 * costs tens of microseconds, and "Question 1 of 5" on every hosted page made two (a profile of
 * GET /f/{id} put a fifth of the page's CPU there). A page speaks the form's few languages, so
 * the maps stay small.
 */
const numberFormatOf = keptPerKey((lang) => new Intl.NumberFormat(lang));
const pluralRulesOf = keptPerKey((lang) => new Intl.PluralRules(lang));

const numberOf = (lang: string, value: unknown): string =>
  typeof value === 'number' ? numberFormatOf(lang).format(value) : String(value ?? '');

function render(lang: string, list: readonly Part[], values: MessageValues, count?: number): string {
  let out = '';
  for (const part of list) {
    if (typeof part === 'string') out += part;
    else if ('pound' in part) out += numberOf(lang, count);
    else if ('plural' in part) {
      const n = Number(values[part.arg]);
      const branch =
        part.plural[`=${n}`] ?? part.plural[pluralRulesOf(lang).select(n)] ?? part.plural.other ?? [];
      out += render(lang, branch, values, n);
    } else if ('number' in part) out += numberOf(lang, values[part.arg]);
    else out += String(values[part.arg] ?? '');
  }
  return out;
}

/** One message in `lang` with its values. */
export function formatMessage(lang: string, message: string, values: MessageValues = {}): string {
  let list = parsed.get(message);
  if (!list) {
    list = parse(message);
    parsed.set(message, list);
  }
  return render(lang, list, values);
}
