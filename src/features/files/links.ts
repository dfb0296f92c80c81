import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * Signed file links (API.md §12): `/files/{token}` needs no credential and expires. The token
 * is `<file id>.<expiry, seconds since the epoch, base 36>.<HMAC-SHA256 of both>`, keyed by a
 * secret derived from the master key (app.ts): the same on every instance sharing a master key,
 * and changed with it. An altered, expired or foreign token is simply not found (404).
 */
export class FileLinks {
  /** The secret as a key object, made once (a Buffer key makes one per HMAC). */
  private readonly key: KeyObject;

  constructor(
    secret: Buffer,
    /** Seconds a link stays valid (FILE_LINK_TTL_S). */
    private readonly ttlS: number,
    /** The origin links are written with (PUBLIC_URL, else the address listened on), or '' for a path alone. */
    private readonly origin: () => string,
  ) {
    this.key = createSecretKey(secret);
  }

  private signature(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  token(fileId: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + this.ttlS;
    const payload = `${fileId}.${expires.toString(36)}`;
    return `${payload}.${this.signature(payload)}`;
  }

  url(fileId: string, now = Date.now()): string {
    return `${this.origin()}/files/${this.token(fileId, now)}`;
  }

  /** The file id a token names, when its signature holds and it has not expired. */
  verify(token: string, now = Date.now()): string | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [fileId = '', expires = '', signature = ''] = parts;
    const expected = Buffer.from(this.signature(`${fileId}.${expires}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const expiresAt = Number.parseInt(expires, 36);
    if (!Number.isFinite(expiresAt) || expiresAt * 1000 <= now) return undefined;
    return fileId;
  }
}
