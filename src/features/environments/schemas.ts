import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../platform/http/schemas.js';

/** The environment resource (API.md §3). */

export const EnvironmentOut = Type.Object({
  name: Type.String(),
  isDefault: Type.Boolean(),
  createdAt: Timestamp,
});
export const CreateEnvironmentBody = Type.Object({ name: Type.String() }, { additionalProperties: false });
export const EnvironmentNameParams = Type.Object({ name: Type.String() });
