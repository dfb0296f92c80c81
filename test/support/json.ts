import type { Response } from './app.js';

/**
 * Types for what the API answers, so that a test reading `response.body.x` is checked by the
 * compiler (a member renamed or misspelt fails `tsc`, not silently `undefined`). The request
 * helper (app.ts) parses every body as `any`; these cast it at the call site.
 */

/** One entry of a problem's `errors` (API.md §2). */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/**
 * The members of an RFC 9457 problem that tests read beside a resource's own. Optional: one
 * request helper answers both the resource (2xx) and the problem (4xx), and the test tells
 * which by the status it expects (`expectProblem` checks the problem's shape itself).
 */
export interface ProblemMembers {
  code?: string;
  detail?: string;
  errors?: FieldError[];
  suggestions?: string[];
}

/** An RFC 9457 problem, as every refusal of the API answers it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  suggestions?: string[];
}

/** A list envelope: a page of items, and the cursor of the next page (null on the last). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** A response whose body is `T` on success, or a problem. */
export type TypedResponse<T> = Omit<Response, 'body'> & { body: T & ProblemMembers };

/** The response, its body typed as `T` (or a problem). */
export function typed<T>(response: Response): TypedResponse<T> {
  return response;
}

/** The parsed body of a response, typed as `T`. */
export function json<T>(response: Response): T {
  return response.body as T;
}
