import { ar } from './ar.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { he } from './he.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { pt } from './pt.js';
import { sv } from './sv.js';
import { tr } from './tr.js';
import { uk } from './uk.js';
import { type Catalogue, type MessageId, SCRIPT_MESSAGES, type Words, wordsOf } from './words.js';
import { zhHans } from './zh-hans.js';

/**
 * Every language Intake's own words ship in (API.md §13), by BCP 47 tag. Adding one: a file
 * beside en.ts typed `Catalogue` (the compiler names a missing message, the catalogue's test
 * a lost placeholder), a line here and its tag in `shipped.ts`.
 */
export const CATALOGUES: Readonly<Record<string, Catalogue>> = {
  en,
  de,
  fr,
  es,
  it,
  pt,
  nl,
  pl,
  sv,
  tr,
  uk,
  ar,
  he,
  ja,
  'zh-Hans': zhHans,
};

export { SHIPPED_LANGUAGES } from './shipped.js';

/**
 * Which shipped catalogue speaks `tag`: itself, else its language with its script (zh-CN and
 * zh-SG are written in Han simplified), else its language alone (de-AT → de); undefined for
 * a language Intake does not speak.
 */
export function catalogueLanguageOf(tag: string): string | undefined {
  if (CATALOGUES[tag]) return tag;
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag);
  } catch {
    return undefined;
  }
  const full = locale.maximize();
  const withScript = `${full.language}-${full.script ?? ''}`;
  if (CATALOGUES[withScript]) return withScript;
  if (full.language === 'zh') return undefined; // Han traditional is not zh-Hans
  return CATALOGUES[full.language] ? full.language : undefined;
}

/** Intake's words shown as `lang`: its catalogue, or English for a language without one. */
export function wordsFor(lang: string): Words {
  const own = catalogueLanguageOf(lang);
  return own ? wordsOf(lang, own, CATALOGUES[own] ?? en, en) : wordsOf(lang, 'en', en, en);
}

export const ENGLISH = wordsFor('en');

/** The page script's messages in one language (the form's `data-words`): only those, only that one. */
export function scriptMessagesFor(lang: string): Partial<Record<MessageId, string>> {
  const catalogue = CATALOGUES[catalogueLanguageOf(lang) ?? 'en'] ?? en;
  return Object.fromEntries(SCRIPT_MESSAGES.map((id) => [id, catalogue[id]]));
}
