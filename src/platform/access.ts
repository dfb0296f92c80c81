import type { Principal } from './auth.js';
import { forbidden, type Problem, unauthorized } from './problem.js';

/**
 * Ownership decisions over anything that belongs to a user and one of their environments
 * (API.md §1): decisions only, the caller turns a denial into its answer. Forms use them, and
 * so does everything managed like its form (webhooks, submissions).
 */

/** What a decision needs of a resource. */
export interface Owned {
  userId: string;
  environment: string;
}

export function keyOutsideScope(): Problem {
  return forbidden('This API key belongs to another environment (or another account) than the form');
}

/**
 * Managing a form (changing it, its webhooks, or working its submissions): its owner's
 * session, or a secret key of its environment.
 */
export function manageDenial(principal: Principal | null, owned: Owned): Problem | undefined {
  if (principal === null) return unauthorized('Managing a form needs a session token or a secret key');
  if (principal.kind === 'publishable') {
    return forbidden(
      'A publishable key can only read forms and submit to them; use a secret key or a session',
    );
  }
  if (principal.userId !== owned.userId) {
    return principal.kind === 'session'
      ? forbidden('You do not own this form', 'not_owner')
      : keyOutsideScope();
  }
  if (principal.kind === 'secret' && principal.environment !== owned.environment) return keyOutsideScope();
  return undefined;
}

/** A form named in one environment's path or query while it lives in another. */
export function environmentMismatch(
  form: Owned & { id: string },
  environment: string | undefined,
): Problem | undefined {
  if (environment === undefined || environment === form.environment) return undefined;
  return forbidden(
    `The form ${form.id} is in the environment "${form.environment}", not "${environment}"; forms never move between environments`,
    'form_not_in_environment',
  );
}
