import { Type } from '@sinclair/typebox';
import { KEY_KINDS } from '../../platform/auth.js';
import { EnvironmentQuery, StringEnum, Timestamp } from '../../platform/http/schemas.js';

/** The API key resource (API.md §4). */

const KeyKindSchema = StringEnum(KEY_KINDS);

export const KeyOut = Type.Object({
  id: Type.String(),
  kind: KeyKindSchema,
  environment: Type.String(),
  last4: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
});
export const CreatedKeyOut = Type.Object({
  id: Type.String(),
  kind: KeyKindSchema,
  environment: Type.String(),
  key: Type.String({ description: 'The full key: shown this once, stored only as its SHA-256 hash' }),
  last4: Type.String(),
  createdAt: Timestamp,
});
export const EnvironmentParam = Type.Object({ environment: Type.Optional(EnvironmentQuery) });
export const KeyIdParams = Type.Object({ keyId: Type.String({ maxLength: 100 }) });
