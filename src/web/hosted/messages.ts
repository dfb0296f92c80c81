import type { FieldError } from '../../shared/form.js';
import type { Words } from '../../shared/i18n/words.js';

/**
 * What the hosted page says of a post refused as a whole, in full sentences, in the page's
 * language (the catalogue's words, shared/i18n). The CAPTCHA's and a spent key's are shown as
 * errors of the page's controls (`_captcha`, `_idempotency`: the error summary shows them as
 * text, as no field has those names); spam is told in words that name no mechanism, so a bot
 * learns nothing of the honeypot or the rules.
 */

const pageError = (field: string, code: string, message: string): FieldError => ({ field, code, message });

export const captchaUndone = (words: Words) =>
  pageError('_captcha', 'captcha_undone', words.say('captchaUndone'));
export const captchaFailed = (words: Words) =>
  pageError('_captcha', 'captcha_failed', words.say('captchaFailed'));
export const sentAlready = (words: Words) =>
  pageError('_idempotency', 'sent_already', words.say('sentAlready'));
export const spamRefused = (words: Words) => words.say('spamRefused');
