import type { FieldError } from '../../shared/form.js';

/**
 * What the hosted page says of a post refused as a whole, in full sentences. The CAPTCHA's and a
 * spent key's are shown as errors of the page's controls (`_captcha`, `_idempotency`: the error
 * summary shows them as text, as no field has those names); spam is told in words that name no
 * mechanism, so a bot learns nothing of the honeypot or the rules.
 */

const pageError = (field: string, code: string, message: string): FieldError => ({ field, code, message });

export const CAPTCHA_UNDONE = pageError(
  '_captcha',
  'captcha_undone',
  'Complete the check that you are not a robot, then send the form again.',
);
export const CAPTCHA_FAILED = pageError(
  '_captcha',
  'captcha_failed',
  'The check that you are not a robot did not pass: do it again, then send the form again.',
);
export const SENT_ALREADY = pageError(
  '_idempotency',
  'sent_already',
  'This form was sent already, with other answers. Send it again to send these answers as a new response.',
);
export const SPAM_REFUSED =
  'Your response could not be accepted. If you are a person, try again later, or contact the people who published this form.';
