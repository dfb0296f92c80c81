import { en } from './en.js';
import type { Catalogue } from './words.js';
import { SCRIPT_MESSAGES, type Words, wordsOf } from './words.js';

/**
 * One shipped catalogue at a time, each a chunk of its own in the browser: the builder's preview
 * speaks the language it shows without the dashboard carrying all fifteen. The server uses
 * catalogues.ts, which holds them all.
 */
const LOADERS: Readonly<Record<string, () => Promise<Catalogue>>> = {
  de: () => import('./de.js').then((module) => module.de),
  fr: () => import('./fr.js').then((module) => module.fr),
  es: () => import('./es.js').then((module) => module.es),
  it: () => import('./it.js').then((module) => module.it),
  pt: () => import('./pt.js').then((module) => module.pt),
  nl: () => import('./nl.js').then((module) => module.nl),
  pl: () => import('./pl.js').then((module) => module.pl),
  sv: () => import('./sv.js').then((module) => module.sv),
  tr: () => import('./tr.js').then((module) => module.tr),
  uk: () => import('./uk.js').then((module) => module.uk),
  ar: () => import('./ar.js').then((module) => module.ar),
  he: () => import('./he.js').then((module) => module.he),
  ja: () => import('./ja.js').then((module) => module.ja),
  'zh-Hans': () => import('./zh-hans.js').then((module) => module.zhHans),
};

/** The shipped catalogue a tag is said in: itself, else its language alone (de-AT → de); none for English or an unknown one. */
function catalogueOf(tag: string): string | undefined {
  if (LOADERS[tag]) return tag;
  try {
    const language = new Intl.Locale(tag).language;
    return LOADERS[language] ? language : undefined;
  } catch {
    return undefined;
  }
}

/** Intake's words in `tag`, and the page script's messages as a form's `data-words` carries them. */
export async function loadWords(tag: string): Promise<{ words: Words; scriptWords: string }> {
  const own = catalogueOf(tag);
  const catalogue = own ? await LOADERS[own]?.() : undefined;
  const messages = catalogue ?? en;
  return {
    words: wordsOf(tag, own ?? 'en', messages, en),
    scriptWords: JSON.stringify({
      lang: tag,
      messages: Object.fromEntries(SCRIPT_MESSAGES.map((id) => [id, messages[id] ?? en[id]])),
    }),
  };
}

/** For the test that holds this list to the catalogues': every shipped language but English. */
export const LOADED_LANGUAGES = Object.keys(LOADERS);
