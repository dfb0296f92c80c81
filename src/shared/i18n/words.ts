import { keptPerKey } from '../memo.js';
import type { en } from './en.js';
import { formatMessage, type MessageValues } from './format.js';

/**
 * Words in one language: what every page, the validator and the page script say through. The
 * catalogues themselves are `catalogues.ts`'s (the server's); the hosted page's script is handed
 * only its page's language's messages (`SCRIPT_MESSAGES`, in the form's `data-words`).
 */

export type MessageId = keyof typeof en;
export type Catalogue = Readonly<Record<MessageId, string>>;
export type { MessageValues };

export interface Words {
  /** The language shown (a BCP 47 tag): `<html lang>`, and what a submission stores. */
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
  say(id: MessageId, values?: MessageValues): string;
}

const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug', 'syr']);

/**
 * Which way a language is written: its script's own direction (Arabic, Hebrew … right to left).
 * Worked out once a tag: `Intl.Locale#maximize` is dear on every page.
 */
export const directionOf: (tag: string) => 'ltr' | 'rtl' = keptPerKey((tag) => scriptDirection(tag));

function scriptDirection(tag: string): 'ltr' | 'rtl' {
  try {
    const locale = new Intl.Locale(tag).maximize();
    if (locale.script && ['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg'].includes(locale.script))
      return 'rtl';
    return RTL_LANGUAGES.has(locale.language) ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}

/**
 * Words over a catalogue: `messages` in `locale` (the catalogue's own language, whose plural
 * rules its words follow), shown as `lang`; a message it lacks is said from `fallback`.
 */
export function wordsOf(
  lang: string,
  locale: string,
  messages: Partial<Record<MessageId, string>>,
  fallback: Partial<Record<MessageId, string>> = {},
): Words {
  return {
    lang,
    dir: directionOf(lang),
    say(id, values) {
      const own = messages[id];
      if (own !== undefined) return formatMessage(locale, own, values);
      return formatMessage('en', fallback[id] ?? id, values);
    },
  };
}

/** The messages the hosted page's script says: handed to it in the page's language only. */
export const SCRIPT_MESSAGES = [
  'required',
  'requiredBox',
  'requiredChoice',
  'requiredChoices',
  'notText',
  'tooShort',
  'tooLong',
  'notEmail',
  'notUrl',
  'notPhone',
  'notPattern',
  'notNumber',
  'notWhole',
  'belowMinimum',
  'aboveMaximum',
  'notDate',
  'notOption',
  'requiredFile',
  'fileTooLarge',
  'tooManyFiles',
  'fileType',
  'fileEmpty',
  'invalid',
  'labelled',
  'sentence',
  'answeredOf',
  'errorSummaryTitle',
  'errorPrefix',
  'errorTitle',
  'removeFile',
  'uploading',
  'uploadWaiting',
  'uploadTooMany',
  'uploadUnavailable',
  'fileRemoved',
  'uploadTooLarge',
  'uploadFailed',
  'fileUploaded',
  'kindImages',
  'kindVideos',
  'kindAudio',
  'kindText',
  'kindPlainText',
  'kindWord',
  'kindExcel',
  'kindOther',
] as const satisfies readonly MessageId[];

export type ScriptMessageId = (typeof SCRIPT_MESSAGES)[number];
