import type { Principal } from '../../platform/auth.js';
import { forbidden, notFound, type Problem, unauthorized } from '../../platform/problem.js';
import type { StoredForm } from './repo.js';

/**
 * Who may see and change a form (API.md §1 and §5.3). Decisions only: the routes
 * turn a denial into its problem response.
 */

export type ReadView = 'full' | 'public';

export function formNotFound(id: string): Problem {
  return notFound(`No form ${id}`);
}

function keyOutsideScope(): Problem {
  return forbidden('This API key belongs to another environment (or another account) than the form');
}

/** The view `principal` gets of `form`, or the problem that denies it. */
export function readView(principal: Principal | null, form: StoredForm): ReadView | Problem {
  const isOwner = principal !== null && principal.userId === form.userId;
  if (principal === null) return form.status === 'live' ? 'public' : formNotFound(form.id);
  if (principal.kind === 'session') {
    if (isOwner) return 'full';
    return form.status === 'live' ? 'public' : forbidden('You do not own this form', 'not_owner');
  }
  if (!isOwner || principal.environment !== form.environment) return keyOutsideScope();
  // Publishable keys live in browsers: they read what a visitor may see, never the handling.
  return principal.kind === 'secret' ? 'full' : 'public';
}

/**
 * Managing a form (changing it, or working its submissions): its owner's session, or a
 * secret key of its environment.
 */
export function manageDenial(principal: Principal | null, form: StoredForm): Problem | undefined {
  if (principal === null) return unauthorized('Managing a form needs a session token or a secret key');
  if (principal.kind === 'publishable') {
    return forbidden(
      'A publishable key can only read forms and submit to them; use a secret key or a session',
    );
  }
  if (principal.userId !== form.userId) {
    return principal.kind === 'session'
      ? forbidden('You do not own this form', 'not_owner')
      : keyOutsideScope();
  }
  if (principal.kind === 'secret' && principal.environment !== form.environment) return keyOutsideScope();
  return undefined;
}

export function environmentMismatch(form: StoredForm, environment: string | undefined): Problem | undefined {
  if (environment === undefined || environment === form.environment) return undefined;
  return forbidden(
    `The form ${form.id} is in the environment "${form.environment}", not "${environment}"; forms never move between environments`,
    'form_not_in_environment',
  );
}

/**
 * The form, when the caller may manage it (and, when `environment` is named, it is there);
 * else the problem: 404 for an unknown form, then `manageDenial`, then `environmentMismatch`.
 */
export function managedOrThrow(
  principal: Principal | null,
  form: StoredForm | undefined,
  formId: string,
  environment?: string,
): StoredForm {
  if (!form) throw formNotFound(formId);
  const denial = manageDenial(principal, form) ?? environmentMismatch(form, environment);
  if (denial) throw denial;
  return form;
}
