import type { StoredUser } from './repo.js';

/** A user as API.md §2 shows one: never the password hash. */
export function presentUser(user: StoredUser) {
  return { id: user.id, email: user.email, createdAt: user.createdAt };
}
