import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { fieldErrorsFromAjv } from './errors.js';
import { createAjv } from './http/validation.js';

/** The field errors of a body against a schema, as a 400 lists them. */
function errorsOf(schema: object, body: unknown) {
  const validate = createAjv().compile(schema);
  expect(validate(body)).toBe(false);
  return fieldErrorsFromAjv(validate.errors ?? []);
}

describe('field errors from the validator', () => {
  const Nullable = Type.Object({
    closesAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    note: Type.Optional(Type.Union([Type.String({ maxLength: 3 }), Type.Null()])),
  });

  it('names a member that may be null once, by what it failed, without "must be null"', () => {
    expect(errorsOf(Nullable, { closesAt: 5 })).toEqual([
      { field: 'closesAt', code: 'type', message: 'must be text' },
    ]);
    expect(errorsOf(Nullable, { closesAt: 'soon' })).toEqual([
      { field: 'closesAt', code: 'format', message: expect.stringContaining('must be a date and time') },
    ]);
  });

  it('keeps one line per failing member, each member named', () => {
    const errors = errorsOf(Nullable, { closesAt: 'soon', note: 'too long' });
    expect(errors.map((error) => error.field)).toEqual(['closesAt', 'note']);
  });

  it('words a union of literals as clients know it: const, then anyOf', () => {
    const Role = Type.Object({
      role: Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('viewer')]),
    });
    expect(errorsOf(Role, { role: 'boss' })).toEqual([
      { field: 'role', code: 'const', message: 'must be one of: "owner", "admin", "viewer"' },
      { field: 'role', code: 'anyOf', message: expect.any(String) },
    ]);
  });

  it('a body that may be absent (an object or null) names its failing member, and no more', () => {
    const Optional = Type.Union([Type.Object({ read: Type.Optional(Type.Boolean()) }), Type.Null()]);
    expect(errorsOf(Optional, { read: 'true' })).toEqual([
      { field: 'read', code: 'type', message: 'must be true or false' },
    ]);
  });

  it('keeps the alternatives’ summary where no branch said anything about the member itself', () => {
    const Either = Type.Object({
      target: Type.Union([
        Type.Object({ url: Type.String() }, { additionalProperties: false }),
        Type.Object({ email: Type.String() }, { additionalProperties: false }),
      ]),
    });
    const errors = errorsOf(Either, { target: {} });
    expect(errors.map((error) => error.field)).toEqual(['target.url', 'target.email', 'target']);
  });
});
