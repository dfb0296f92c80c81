import { Ajv, type Options } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

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
