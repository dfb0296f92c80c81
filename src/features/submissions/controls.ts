import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../platform/context.js';
import { Problem } from '../../platform/problem.js';
import { createRateLimiter, type RateLimiter, rateLimited } from '../../platform/rate-limit.js';
import type { ClosedReason } from '../../shared/form.js';
import { closedReasonOf } from '../forms/access-rules.js';
import { acceptedCount, type StoredForm } from '../forms/repo.js';

/**
 * Response controls on the submit path (API.md §15): whether a form is open now, its password
 * (checked against the stored scrypt hash, guesses rate-limited per form and address), the keyed
 * hash that `oncePer: "email"` compares addresses by, and the signed cookies of the hosted page
 * (a form answered from this browser; a form unlocked with its password).
 *
 * One secret, derived from the master key (app.ts), keys the address hashes and signs the
 * cookies: the same on every instance sharing a master key. Each use signs a text of its own
 * kind, so a value made for one use is never valid for another.
 */

/** Wrong passwords one client may try on one form in `PASSWORD_WINDOW_S` before being refused (429). */
export const PASSWORD_GUESSES = 10;
const PASSWORD_WINDOW_S = 15 * 60;
/** How long a form seen with room under its limit is taken to have room, without reading its count again. */
const ROOM_TRUSTED_MS = 1000;
const ROOM_CACHE_SIZE = 10_000;
/** The longest password a form takes (forms/schemas.ts `AccessInput`): a longer one is wrong unhashed. */
const MAX_PASSWORD_LENGTH = 200;
/** How long a hosted page stays unlocked by its password. */
export const UNLOCK_TTL_S = 12 * 60 * 60;

export const formClosed = (form: StoredForm, reason: ClosedReason): Problem => {
  const why: Record<ClosedReason, string> = {
    not_yet_open: `it opens at ${form.definition.access?.opensAt}`,
    closed: `it closed at ${form.definition.access?.closesAt}`,
    full: `it has taken its ${form.definition.access?.maxSubmissions} submissions`,
  };
  return new Problem(403, 'form_closed', `The form ${form.id} takes no submissions: ${why[reason]}`, {
    extensions: { reason },
  });
};

export const alreadySubmitted = (form: StoredForm): Problem =>
  new Problem(
    409,
    'already_submitted',
    `The form ${form.id} takes one submission per e-mail address, and this address has sent one`,
  );

/**
 * The password an `X-Form-Password` header carries. Header values reach Node as Latin-1, so a
 * password typed with letters beyond it, sent as UTF-8 (as curl and most servers' clients do),
 * arrives as its bytes: read as UTF-8 when they are valid UTF-8, else as they came.
 */
export function formPasswordOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  if (!/[\x80-\xff]/.test(header)) return header;
  const bytes = Buffer.from(header, 'latin1');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return header;
  }
}

export const passwordRequired = (form: StoredForm, given: boolean): Problem =>
  new Problem(
    401,
    'password_required',
    given
      ? `The password for the form ${form.id} is wrong`
      : `The form ${form.id} asks for a password: send it in X-Form-Password`,
    // a 401 names how to authenticate (RFC 9110): here, the form's password in its header
    { headers: { 'www-authenticate': `FormPassword header="X-Form-Password"` } },
  );

/** An address as it is compared: `Ada@Example.com ` and `ada@example.com` are one. */
export const normalisedAddress = (address: string): string => address.trim().toLowerCase();

export class ResponseControls {
  private readonly guesses: RateLimiter;
  /** The secret as a key object, made once: HMAC with a Buffer key makes one per call (5 × slower, measured). */
  private readonly key: KeyObject;

  constructor(
    private readonly context: Pick<AppContext, 'database' | 'passwords' | 'rateLimitStore'>,
    secret: Buffer,
  ) {
    this.key = createSecretKey(secret);
    this.guesses = createRateLimiter(context.rateLimitStore, {
      name: 'form-password',
      points: PASSWORD_GUESSES,
      windowSeconds: PASSWORD_WINDOW_S,
    });
  }

  private sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  /**
   * Why `form` takes no submissions now, or undefined; the count is read only for a form with a
   * limit. With `trustRoom` (the submit path), a form seen with room less than a second ago is
   * taken to have it still, without reading its count, as long as the places seen free then have
   * not all been taken by this process's accepted submissions since (`tookPlace`): the check spares
   * a full form a submission's work and refuses what the writer does not count (a flagged
   * submission, an invalid one: API.md §15 closes the form to every submission once it is full),
   * while a submission to a form far from full reads no row. The writer counts accepted ones
   * exactly. A full form is read again each time, so a place freed by a deleted response is seen
   * at once. The pages read the count every time: they must not show a full form.
   */
  async closedReason(
    form: StoredForm,
    { now = Date.now(), trustRoom = false }: { now?: number; trustRoom?: boolean } = {},
  ): Promise<ClosedReason | undefined> {
    const access = form.definition.access;
    if (!access) return undefined;
    const byClock = closedReasonOf(access, now);
    if (byClock || access.maxSubmissions === undefined) return byClock;
    const room = this.roomSeen.get(form.id);
    if (trustRoom && room !== undefined && room.until > now && room.left > 0) return undefined;
    const accepted = await acceptedCount(this.context.database.db, form.id);
    const reason = closedReasonOf(access, now, accepted);
    if (reason) this.roomSeen.delete(form.id);
    else this.rememberRoom(form.id, now, access.maxSubmissions - accepted);
    return reason;
  }

  /** An accepted submission to `formId` was stored: one place fewer for the trust above to take. */
  tookPlace(formId: string): void {
    const room = this.roomSeen.get(formId);
    if (room) room.left -= 1;
  }

  /** The writer found `formId` full: its count is read again at the next check. */
  foundFull(formId: string): void {
    this.roomSeen.delete(formId);
  }

  /** Forms seen with room under their limit: until when that is taken on trust, and how many places were free. */
  private readonly roomSeen = new Map<string, { until: number; left: number }>();

  private rememberRoom(formId: string, now: number, left: number): void {
    this.roomSeen.delete(formId);
    this.roomSeen.set(formId, { until: now + ROOM_TRUSTED_MS, left });
    // Map order is insertion order: the first key was remembered longest ago
    if (this.roomSeen.size > ROOM_CACHE_SIZE)
      this.roomSeen.delete(this.roomSeen.keys().next().value as string);
  }

  /** 403 form_closed when the form takes no submissions now. */
  async assertOpen(form: StoredForm): Promise<void> {
    const reason = await this.closedReason(form, { trustRoom: true });
    if (reason) throw formClosed(form, reason);
  }

  /**
   * Whether `given` is the form's password (true for a form without one). Wrong guesses count
   * per form and client address; once `PASSWORD_GUESSES` are spent, 429 before any comparison.
   */
  async passwordMatches(form: StoredForm, given: string | undefined, remoteIp: string): Promise<boolean> {
    const hash = form.definition.access?.passwordHash;
    if (!hash) return true;
    if (given === undefined || given === '') return false;
    const key = `${form.id}:${remoteIp}`;
    const state = await this.guesses.peek(key);
    if (state.remaining === 0) throw rateLimited(state);
    // scrypt's comparison is constant-time (platform/hashing.ts); no password is longer than a form takes
    if (given.length <= MAX_PASSWORD_LENGTH && (await this.context.passwords.verify(given, hash)))
      return true;
    await this.guesses.record(key);
    return false;
  }

  /** The API's door: 401 password_required unless X-Form-Password is the form's password. */
  async assertPassword(form: StoredForm, given: string | undefined, remoteIp: string): Promise<void> {
    if (!(await this.passwordMatches(form, given, remoteIp)))
      throw passwordRequired(form, given !== undefined);
  }

  /** The keyed hash an address is compared by (oncePer "email"): HMAC-SHA256 of the normalised address. */
  addressHash(formId: string, address: string): string {
    return this.sign(`address\u0000${formId}\u0000${normalisedAddress(address)}`);
  }

  /** The hosted page's cookie after a submission of a form with `oncePer: "browser"`. */
  answeredCookie(formId: string): string {
    return this.sign(`answered\u0000${formId}`);
  }

  isAnswered(formId: string, value: string | undefined): boolean {
    return value !== undefined && this.matches(value, this.answeredCookie(formId));
  }

  /**
   * The hosted page's cookie once the password was given: until when, signed with the form and
   * its password's hash (a new password locks every browser out again).
   */
  unlockCookie(form: StoredForm, now = Date.now()): string {
    const until = Math.floor(now / 1000) + UNLOCK_TTL_S;
    return `${until.toString(36)}.${this.unlockSignature(form, until.toString(36))}`;
  }

  isUnlocked(form: StoredForm, value: string | undefined, now = Date.now()): boolean {
    if (!form.definition.access?.passwordHash) return true;
    if (value === undefined) return false;
    const [until = '', signature = '', ...rest] = value.split('.');
    if (rest.length > 0 || !this.matches(signature, this.unlockSignature(form, until))) return false;
    const expires = Number.parseInt(until, 36);
    return Number.isFinite(expires) && expires * 1000 > now;
  }

  private unlockSignature(form: StoredForm, until: string): string {
    return this.sign(
      `unlock\u0000${form.id}\u0000${form.definition.access?.passwordHash ?? ''}\u0000${until}`,
    );
  }

  private matches(given: string, expected: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
