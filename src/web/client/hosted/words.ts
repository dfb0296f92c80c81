import type { Words } from '../../../shared/i18n/words.js';
import { wordsOf } from '../../../shared/i18n/words.js';

/** A page without messages (none should be): the messages' ids, which tests notice. */
const NONE = wordsOf('en', 'en', {});

/**
 * The page's words (API.md §13): the messages the server wrote into the form's `data-words`, in
 * the page's language only (shared/i18n `scriptMessagesFor`), said by the catalogue's formatter;
 * English when a page carries none (an older page, a preview).
 */
export function pageWords(within?: Element | null): Words {
  const form =
    within?.closest<HTMLElement>('form[data-words]') ??
    document.querySelector<HTMLElement>('form[data-words]');
  const data = form?.dataset.words;
  if (!data) return NONE;
  try {
    const { lang, messages } = JSON.parse(data) as { lang: string; messages: Record<string, string> };
    return wordsOf(document.documentElement.lang || lang, lang, messages, {});
  } catch {
    return NONE;
  }
}
