import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
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

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * Route schemas are compiled on a route's first request, not at start-up: compiling every
 * validator and serializer of the API took a third of the time to ready, and a route
 * never called costs nothing. Fastify reads `errors` off the function it was given, so the
 * wrapper mirrors them.
 */
function lazily(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const validate: Validate = (data) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return lazily(() => ajv.compile(schema)) as ReturnType<FastifySchemaCompiler<object>>;
};

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's own serializer compiler (fast-json-stringify), compiling each response schema on first use. */
export function lazySerializers(): SerializerFactory {
  const select = SerializerSelector();
  return (externalSchemas, options) => {
    const compilerOf = select(externalSchemas, options);
    return (route) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => {
        serialize ??= compilerOf(route) as (data: unknown) => string;
        return serialize(data);
      };
    };
  };
}
