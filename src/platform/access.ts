import type { FastifyRequest } from 'fastify';
import { type Principal, requireSession } from './auth.js';
import { forbidden, type Problem, unauthorized } from './problem.js';
import { ROLES, type Role } from './roles.js';

/**
 * The one access rule (API.md §1 and §14): everything belongs to a workspace and one of its
 * environments, and a caller may act on it when it acts in that workspace (a session, with its
 * member's role, read on every request) with at least the role the action needs, or holds a key
 * of that environment. Decisions only: the caller turns a denial into its answer. Forms use
 * them, and so does everything managed like its form (webhooks, submissions), environments,
 * keys and the workspaces' own routes.
 */

export { ROLES, type Role };

/**
 * §14's table as data: each action and the least role that may do it. Every route names one
 * of these actions; nothing else decides what a role may do.
 */
export const LEAST_ROLE = {
  /** read forms, responses, files, analytics, webhooks' deliveries; CSV */
  read: 'viewer',
  /** read/unread, star, notes, reply */
  triage: 'viewer',
  /** create, edit, publish, copy, delete forms; delete responses; webhooks */
  manageForms: 'editor',
  /** API keys, environments, members and invitations, audit log */
  manageAccess: 'admin',
  /** rename the workspace; make or remove owners; delete the workspace */
  own: 'owner',
} as const satisfies Record<string, Role>;
export type Action = keyof typeof LEAST_ROLE;

/** What a key may do in its environment: a secret key works like an editor there, never more. */
const KEY_ACTIONS: ReadonlySet<Action> = new Set(['read', 'triage', 'manageForms']);

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** `role` is at least `least`. */
export function atLeast(role: Role, least: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(least);
}

export function mayDo(role: Role, action: Action): boolean {
  return atLeast(role, LEAST_ROLE[action]);
}

/** What a decision needs of a resource. */
export interface Owned {
  workspaceId: string;
  environment: string;
}

export function keyOutsideScope(): Problem {
  return forbidden('This API key belongs to another environment (or another account) than the form');
}

export function roleTooLow(role: Role, action: Action): Problem {
  return forbidden(
    `Your role in this workspace (${role}) does not allow this: it needs ${LEAST_ROLE[action]} or above`,
  );
}

/** A session's role does not allow `action` in the workspace it acts in. */
export function sessionDenial(
  principal: Extract<Principal, { kind: 'session' }>,
  action: Action,
): Problem | undefined {
  return mayDo(principal.role, action) ? undefined : roleTooLow(principal.role, action);
}

/** A session (keys never manage environments, keys or workspaces) whose role allows `action`. */
export function requireSessionFor(
  request: FastifyRequest,
  action: Action,
): Extract<Principal, { kind: 'session' }> {
  const principal = requireSession(request);
  const denial = sessionDenial(principal, action);
  if (denial) throw denial;
  return principal;
}

/**
 * Acting on something of a form (changing it, its webhooks, reading or working its
 * submissions): a session acting in the form's workspace with a role that allows `action`, or a
 * secret key of its environment. Another workspace's form is refused exactly as a stranger's.
 */
export function manageDenial(principal: Principal | null, owned: Owned, action: Action): Problem | undefined {
  if (principal === null) return unauthorized('Managing a form needs a session token or a secret key');
  if (principal.kind === 'publishable') {
    return forbidden(
      'A publishable key can only read forms and submit to them; use a secret key or a session',
    );
  }
  if (principal.workspaceId !== owned.workspaceId) {
    return principal.kind === 'session'
      ? forbidden('You do not own this form', 'not_owner')
      : keyOutsideScope();
  }
  if (principal.kind !== 'session') {
    if (principal.environment !== owned.environment || !KEY_ACTIONS.has(action)) return keyOutsideScope();
    return undefined;
  }
  return sessionDenial(principal, action);
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
