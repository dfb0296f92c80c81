import { en } from './en.js';
import { SCRIPT_MESSAGES, type Words, wordsOf } from './words.js';

/**
 * Intake's words in English from en.ts alone: the API's `message`s, and the default of the
 * components (the dashboard's builder). The hosted page's script never imports this module: it
 * is handed its page's messages (`data-words`), so no catalogue weighs on its budget.
 */
export const ENGLISH_WORDS: Words = wordsOf('en', 'en', en);

/** The page script's messages in English, as a form's `data-words` carries them (the builder's preview). */
export const ENGLISH_SCRIPT_WORDS = JSON.stringify({
  lang: 'en',
  messages: Object.fromEntries(SCRIPT_MESSAGES.map((id) => [id, en[id]])),
});
