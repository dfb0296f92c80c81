import { randomInt } from 'node:crypto';
import { newId } from '../../platform/ids.js';

/**
 * A new form's id, read from its title (issue 25 item 7): `frm_contact-us-7k3xq9m2`. The
 * words make a shared link say what it leads to; the eight random characters (40 bits,
 * Crockford base32) keep two forms with one title apart and a draft's address unguessable. A
 * title with no Latin letters or digits to take keeps the opaque id (`frm_` and 26 characters).
 * The id is chosen once: renaming the form later never moves its link.
 */

const SUFFIX_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const SUFFIX_LENGTH = 8;
/** 64 (the id's limit) less `frm_`, the hyphen and the suffix leaves 51; fewer words read better. */
const MAX_WORDS_LENGTH = 40;

/** The title's words, lower case, accents dropped ("Café & Co." → "cafe-co"), cut at a word's end. */
export function slugOf(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (words.length <= MAX_WORDS_LENGTH) return words;
  const cut = words.slice(0, MAX_WORDS_LENGTH + 1);
  const lastBreak = cut.lastIndexOf('-');
  return (lastBreak > 0 ? cut.slice(0, lastBreak) : cut.slice(0, MAX_WORDS_LENGTH)).replace(/-+$/, '');
}

export function readableFormId(title: string): string {
  const words = slugOf(title);
  if (words === '') return newId('frm');
  let suffix = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) suffix += SUFFIX_ALPHABET.charAt(randomInt(SUFFIX_ALPHABET.length));
  return `frm_${words}-${suffix}`;
}
