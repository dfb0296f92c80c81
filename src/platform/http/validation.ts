import { Ajv, type Options } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { badRequest } from '../problem.js';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

const shared: Options = {
  allErrors: true, // every failing member is reported, not just the first
  strict: false, // TypeBox adds annotation keywords that Ajv does not know
  removeAdditional: false,
  useDefaults: true,
};

export function createAjv(options: Options = {}): Ajv {
  return addFormats(new Ajv({ ...shared, ...options }));
}

/** Bodies are taken as sent: `"5"` is not a number, unknown members are refused. */
const bodyAjv = createAjv({ coerceTypes: false });
/** Query strings and path parameters are text: numbers and booleans in them are coerced. */
const textAjv = createAjv({ coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
};

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

/** The member path of the first string (or object key) holding U+0000, if any. */
export function findNulCharacter(value: unknown, path = '', skip?: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(value)' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNulCharacter(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, member] of Object.entries(value)) {
    if (key === skip) continue;
    const name = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return name;
    const found = findNulCharacter(member, name);
    if (found) return found;
  }
  return undefined;
}

/**
 * No member of the API needs the NUL character, and PostgreSQL text cannot hold it: it is
 * refused in the path, the query and the body, the same way on both engines (a 400, not a
 * database error). Environment names are left to their own rules, which refuse it too.
 */
export function rejectNulCharacters(request: FastifyRequest): void {
  const config = request.routeOptions.config ?? {};
  const parts = [
    ['path', request.params, 'invalid_parameter'],
    ['query string', request.query, 'invalid_parameter'],
    ['body', request.body, config.formDefinitionBody ? 'invalid_form' : 'validation_failed'],
  ] as const;
  for (const [part, value, code] of parts) {
    const field = findNulCharacter(value, '', config.environmentNameMember ?? 'environment');
    if (field === undefined) continue;
    throw badRequest(code, `The ${part} is invalid: ${field} contains a NUL character`, {
      errors: [{ field, code: 'nul_character', message: 'must not contain NUL (U+0000)' }],
    });
  }
}
