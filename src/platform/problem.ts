import type { FieldError } from '../shared/form.js';

/**
 * RFC 9457 problem details: the one error shape of the API. Features throw `Problem`s;
 * the error handler (errors.ts) turns them, and everything else, into responses.
 */
export const ERROR_CODES = {
  invalid_json: 'Malformed JSON',
  validation_failed: 'Validation failed',
  invalid_form: 'Invalid form definition',
  invalid_parameter: 'Invalid parameter',
  invalid_environment: 'Invalid environment name',
  environment_not_found: 'Environment not found',
  environment_not_empty: 'Environment not empty',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_owner: 'Not the owner',
  form_not_in_environment: 'Form not in environment',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  conflict: 'Conflict',
  last_owner: 'Last owner',
  invalid_token: 'Invalid token',
  immutable_member: 'Immutable member',
  version_conflict: 'Version conflict',
  form_closed: 'Form closed',
  already_submitted: 'Already submitted',
  password_required: 'Password required',
  spam_detected: 'Spam detected',
  no_recipient: 'No recipient',
  mail_failed: 'Mail failed',
  rate_limited: 'Too many requests',
  quota_exceeded: 'Quota exceeded',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  service_unavailable: 'Service unavailable',
  internal: 'Internal error',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One failing member of a request: the shape of shared/form.ts, which the pages and the browser read too. */
export type { FieldError };

export interface ProblemOptions {
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Further members of the problem document (RFC 9457 extension members). */
  extensions?: Record<string, unknown>;
}

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: ProblemOptions = {},
  ) {
    super(detail);
  }

  body(): Record<string, unknown> {
    return {
      type: problemType(this.code),
      title: ERROR_CODES[this.code],
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...(this.options.errors ? { errors: this.options.errors } : {}),
      ...this.options.extensions,
    };
  }
}

export const problemType = (code: ErrorCode): string =>
  `https://intake.dev/problems/${code.replace(/_/g, '-')}`;

export const badRequest = (code: ErrorCode, detail: string, options?: ProblemOptions) =>
  new Problem(400, code, detail, options);
export const unauthorized = (detail: string) =>
  new Problem(401, 'unauthorized', detail, { headers: { 'www-authenticate': 'Bearer' } });
export const forbidden = (detail: string, code: ErrorCode = 'forbidden') => new Problem(403, code, detail);
export const notFound = (detail: string, code: ErrorCode = 'not_found') => new Problem(404, code, detail);
export const conflict = (detail: string, code: ErrorCode = 'conflict', options?: ProblemOptions) =>
  new Problem(409, code, detail, options);
