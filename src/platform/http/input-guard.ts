import type { FastifyRequest } from 'fastify';
import { badRequest } from '../problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body is a form definition: its problems are `invalid_form` (checked in the handler). */
    formDefinitionBody?: boolean;
    /**
     * The top-level member (of the path, query or body) holding an environment name, left to the
     * environment name rules so that any invalid name is `invalid_environment`. Default `environment`.
     */
    environmentNameMember?: string;
  }
}

/** No document of the API nests deeper than this; deeper input is refused before anything walks it. */
export const MAX_DEPTH = 32;

type Finding = { field: string; code: 'nul_character' | 'too_deep' | 'not_finite'; message: string };

/**
 * The first member holding U+0000 (in a string or a key), nested deeper than MAX_DEPTH, or with
 * `finite`, a number JSON parsed to an infinity (`1e400`: a form definition stored with one would
 * come back with null in its place; a submission's answers name it under the field, validator.ts).
 * Iterative, so that no input can exhaust the stack.
 */
export function screenValue(root: unknown, skipTopLevel?: string, finite = false): Finding | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) {
        return { field: path || '(value)', code: 'nul_character', message: 'must not contain NUL (U+0000)' };
      }
      continue;
    }
    if (typeof value === 'number') {
      if (finite && !Number.isFinite(value)) {
        return { field: path || '(value)', code: 'not_finite', message: 'must be a finite number' };
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH) {
      return { field: path || '(value)', code: 'too_deep', message: `nests deeper than ${MAX_DEPTH} levels` };
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], path: `${path}[${i}]`, depth: depth + 1 });
      }
      continue;
    }
    for (const [key, member] of Object.entries(value)) {
      if (depth === 0 && key === skipTopLevel) continue;
      const name = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) {
        return { field: name, code: 'nul_character', message: 'must not contain NUL (U+0000)' };
      }
      stack.push({ value: member, path: name, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Input no route can use is refused the same way on both engines, before validation:
 * NUL characters (PostgreSQL text cannot hold them; no member needs them), documents nested
 * deeper than any of ours, and in a form definition numbers too large for a double. Environment names are left to their own rules.
 */
export function screenInput(request: FastifyRequest): void {
  const config = request.routeOptions.config ?? {};
  const parts = [
    ['path', request.params, 'invalid_parameter'],
    ['query string', request.query, 'invalid_parameter'],
    ['body', request.body, config.formDefinitionBody ? 'invalid_form' : 'validation_failed'],
  ] as const;
  for (const [part, value, code] of parts) {
    const finding = screenValue(
      value,
      config.environmentNameMember ?? 'environment',
      part === 'body' && config.formDefinitionBody === true,
    );
    if (finding === undefined) continue;
    throw badRequest(code, `The ${part} is invalid: ${finding.field} ${finding.message}`, {
      errors: [finding],
    });
  }
}
