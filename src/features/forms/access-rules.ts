import type { FieldError } from '../../platform/problem.js';
import type { ClosedReason, FormAccessInput, Logic, PublicAccess } from '../../shared/form.js';
import type { Field, StoredAccess } from './schemas.js';

/**
 * A form's `access` member (API.md §15): when it opens and closes, how many it takes, one response
 * per browser or e-mail address, a password. Here: how a body's `access` meets the stored one
 * (the password write-only), the rules it is saved under, and whether a form is open at a moment.
 * The limits themselves are kept where they are counted: the submit path's writer.
 */

/**
 * The `access` to store from a body's and the stored one. The password is write-only, so a form
 * read and sent back has none: left out, the stored hash stays; `null` removes it; a string is a
 * new password, handed back to be hashed once the definition is known to be valid.
 */
export function accessFrom(
  sent: FormAccessInput | null,
  previous: StoredAccess | null | undefined,
): { access: StoredAccess | null; newPassword: string | undefined } {
  if (sent === null || typeof sent !== 'object') return { access: null, newPassword: undefined };
  const { password, hasPassword: _readOnly, ...rules } = sent;
  const access: StoredAccess = { ...rules };
  if (password === undefined && previous?.passwordHash) access.passwordHash = previous.passwordHash;
  return { access, newPassword: typeof password === 'string' ? password : undefined };
}

const error = (field: string, code: string, message: string): FieldError => ({ field, code, message });

/** The rules beyond `access`'s shape, every problem at once. */
export function checkAccess(
  access: StoredAccess | null | undefined,
  byId: ReadonlyMap<string, Field>,
  logic: Logic,
): FieldError[] {
  if (!access) return [];
  const errors: FieldError[] = [];
  const { opensAt, closesAt, oncePer, emailField } = access;
  if (opensAt !== undefined && closesAt !== undefined && Date.parse(closesAt) <= Date.parse(opensAt)) {
    errors.push(error('access.closesAt', 'invalid', `must be later than access.opensAt (${opensAt})`));
  }
  if (oncePer === 'email' && emailField === undefined) {
    errors.push(
      error('access.emailField', 'required', 'names the e-mail question to count by when oncePer is "email"'),
    );
  }
  if (emailField !== undefined) {
    const field = byId.get(emailField);
    if (!field) {
      errors.push(
        error('access.emailField', 'unknown_field', `names no field of this form ("${emailField}")`),
      );
    } else if (field.type !== 'email') {
      errors.push(
        error('access.emailField', 'invalid', `must name an email field ("${field.id}" is ${field.type})`),
      );
    } else if (oncePer === 'email' && !field.required) {
      // an empty answer would count for no one: one response per address needs an address
      errors.push(
        error(
          'access.emailField',
          'invalid',
          `"${field.id}" must be required to allow one response per address`,
        ),
      );
    } else if (
      oncePer === 'email' &&
      logic.rules.some((rule) => rule.show?.includes(field.id) || rule.hide?.includes(field.id))
    ) {
      errors.push(
        error(
          'access.emailField',
          'invalid',
          `"${field.id}" is shown or hidden by the logic: one response per address needs it always asked`,
        ),
      );
    }
  }
  return errors;
}

/**
 * Why the form takes no responses at `now`, or undefined when it does. `accepted`: the accepted
 * submissions counted so far (forms/repo.ts `acceptedCount`); unknown, the limit is not judged.
 */
export function closedReasonOf(
  access: StoredAccess | null | undefined,
  now: number,
  accepted?: number,
): ClosedReason | undefined {
  if (!access) return undefined;
  if (access.opensAt !== undefined && now < Date.parse(access.opensAt)) return 'not_yet_open';
  if (access.closesAt !== undefined && now >= Date.parse(access.closesAt)) return 'closed';
  if (access.maxSubmissions !== undefined && accepted !== undefined && accepted >= access.maxSubmissions)
    return 'full';
  return undefined;
}

/** What a renderer is told of `access`: open or not and why, the message; never the password or its hash. */
export function publicAccessOf(
  access: StoredAccess | null | undefined,
  now: number,
  accepted: number | undefined,
  closedMessage: string | undefined,
): PublicAccess {
  const reason = closedReasonOf(access, now, accepted);
  const view: PublicAccess = { open: reason === undefined, passwordRequired: Boolean(access?.passwordHash) };
  if (reason) view.closedReason = reason;
  if (closedMessage !== undefined) view.closedMessage = closedMessage;
  if (access?.opensAt !== undefined) view.opensAt = access.opensAt;
  if (access?.closesAt !== undefined) view.closesAt = access.closesAt;
  if (access?.oncePer !== undefined) view.oncePer = access.oncePer;
  return view;
}

/** `access` as its owner reads it: `hasPassword`, never the hash. */
export function ownerAccessOf(access: StoredAccess | null | undefined) {
  if (!access) return null;
  const { passwordHash, ...rules } = access;
  return { ...rules, hasPassword: Boolean(passwordHash) };
}
