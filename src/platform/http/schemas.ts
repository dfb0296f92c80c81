import { type TSchema, Type } from '@sinclair/typebox';

/** Schemas shared by every feature's routes. */
/** A string enum: one error ("must be equal to one of the allowed values") rather than one per value. */
export const StringEnum = <T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });

export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T10:02:06.123Z'] });

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() })),
    ),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details' },
);

export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const EnvironmentQuery = Type.String({
  description: 'Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production',
});

const problemRef = Type.Ref('Problem');

/** The error responses a route can give, for the OpenAPI document. */
export function problems(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, problemRef]));
}
