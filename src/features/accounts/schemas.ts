import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../platform/http/schemas.js';

/** Accounts and sessions (API.md §2, and the browser session of §11.3). */

export const UserOut = Type.Object({ id: Type.String(), email: Type.String(), createdAt: Timestamp });
export const CsrfToken = Type.String({
  description: 'With the session cookie: send it in `X-CSRF-Token` on every POST, PUT, PATCH and DELETE',
});
/** `token` in the body, or (asked with `cookie: true`) the session cookie and its `csrfToken`. */
export const SessionGrant = Type.Union([
  Type.Object(
    {
      user: UserOut,
      token: Type.String({ description: 'The session token, for Authorization: Bearer' }),
      expiresAt: Timestamp,
    },
    { additionalProperties: false },
  ),
  Type.Object({ user: UserOut, csrfToken: CsrfToken, expiresAt: Timestamp }, { additionalProperties: false }),
]);
const CookieWanted = Type.Optional(
  Type.Boolean({
    description:
      'true: set the session as an HttpOnly cookie (the dashboard) and answer `csrfToken` instead of `token`',
  }),
);
export const Credentials = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 8, maxLength: 256 }),
    cookie: CookieWanted,
  },
  { additionalProperties: false },
);
export const LoginCredentials = Type.Object(
  { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 256 }), cookie: CookieWanted },
  { additionalProperties: false },
);

export const CurrentUserOut = Type.Object({ user: UserOut, csrfToken: Type.Optional(CsrfToken) });

const NewPassword = Type.String({ minLength: 8, maxLength: 256 });
export const PasswordChange = Type.Object(
  { currentPassword: Type.String({ maxLength: 256 }), newPassword: NewPassword },
  { additionalProperties: false },
);
export const PasswordReset = Type.Object(
  { email: Type.String({ maxLength: 254 }) },
  { additionalProperties: false },
);
export const PasswordResetConfirm = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: NewPassword },
  { additionalProperties: false },
);
