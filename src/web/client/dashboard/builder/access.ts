import type { FormAccess, FormAccessInput, OncePer } from '../../../../shared/form.js';

/**
 * The builder's "Responses" section as a draft (API.md §15 `access`): when the form opens and
 * closes, how many it takes, what its closed page says, one response per browser or e-mail
 * address, and its password. Times are typed in the person's own time zone (datetime-local)
 * and sent as ISO UTC; the password is write-only: left out keeps the stored one, null removes it.
 */

export interface AccessDraft {
  /** datetime-local text (`2026-12-01T09:30`) in the browser's time zone; blank: no such moment. */
  opensAt: string;
  closesAt: string;
  /** Blank: no limit. */
  maxSubmissions: string;
  closedMessage: string;
  oncePer: '' | OncePer;
  emailField: string;
  /** The stored form has a password (never read back). */
  hasPassword: boolean;
  /** A new password typed (blank: none typed, the stored one stays). */
  password: string;
  /** The stored password is to be removed on save. */
  removePassword: boolean;
}

const two = (n: number) => String(n).padStart(2, '0');

/** An ISO moment as a datetime-local control's text, in this browser's time zone (seconds only when set). */
export function localOf(iso: string | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const seconds = at.getSeconds() === 0 ? '' : `:${two(at.getSeconds())}`;
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}${seconds}`;
}

/** A datetime-local control's text (this browser's time zone) as ISO UTC; undefined when blank or not a moment. */
export function isoOf(local: string): string | undefined {
  const text = local.trim();
  if (text === '') return undefined;
  // a date and time without an offset is read in the local time zone (ECMA-262 Date.parse)
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** The browser's time zone, as the hint names it ("Europe/Berlin, UTC+01:00"). */
export function timeZoneName(at = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset = -at.getTimezoneOffset();
  const sign = offset < 0 ? '−' : '+';
  const hours = two(Math.floor(Math.abs(offset) / 60));
  return `${zone}, UTC${sign}${hours}:${two(Math.abs(offset) % 60)}`;
}

export function accessDraftOf(access: FormAccess | null | undefined): AccessDraft {
  return {
    opensAt: localOf(access?.opensAt),
    closesAt: localOf(access?.closesAt),
    maxSubmissions: access?.maxSubmissions === undefined ? '' : String(access.maxSubmissions),
    closedMessage: access?.closedMessage ?? '',
    oncePer: access?.oncePer ?? '',
    emailField: access?.emailField ?? '',
    hasPassword: access?.hasPassword === true,
    password: '',
    removePassword: false,
  };
}

/**
 * `access` in a PUT body: the rules set, `password` only when changed (a new one, or null to
 * remove the stored one); null when nothing is left (no rule, no password), which removes it.
 */
export function accessBodyOf(draft: AccessDraft): FormAccessInput | null {
  const opensAt = isoOf(draft.opensAt);
  const closesAt = isoOf(draft.closesAt);
  const limit = draft.maxSubmissions.trim();
  const closedMessage = draft.closedMessage.trim() === '' ? undefined : draft.closedMessage;
  const rules: FormAccessInput = {
    ...(opensAt ? { opensAt } : {}),
    ...(closesAt ? { closesAt } : {}),
    // a number that is not one goes as it is typed (NaN is sent as null): the server says what is wrong
    ...(limit ? { maxSubmissions: Number(limit) } : {}),
    ...(closedMessage ? { closedMessage } : {}),
    ...(draft.oncePer ? { oncePer: draft.oncePer } : {}),
    ...(draft.oncePer === 'email' && draft.emailField ? { emailField: draft.emailField } : {}),
  };
  const keepsPassword = draft.hasPassword && !draft.removePassword;
  if (draft.password) return { ...rules, password: draft.password };
  if (Object.keys(rules).length === 0 && !keepsPassword) return null;
  return draft.hasPassword && draft.removePassword ? { ...rules, password: null } : rules;
}
