import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Key management: wraps and unwraps data keys. Values are encrypted under data keys
 * (envelope.ts); only the small data keys ever go to the provider, so a cloud KMS can
 * take the place of the local one without touching stored ciphertext formats.
 */
export interface KeyManagementProvider {
  /** Stored with every wrapped key, so that a later provider knows what it is reading. */
  readonly id: string;
  wrap(dataKey: Buffer): Promise<string>;
  unwrap(wrapped: string): Promise<Buffer>;
}

const MASTER_KEY_FILE = 'master.key';

/** The master key from MASTER_KEY (64 hex or 44 base64 characters), else generated once into DATA_DIR. */
export function loadMasterKey(
  configured: Buffer | undefined,
  dataDir: string,
): { key: Buffer; generated: boolean } {
  if (configured) return { key: configured, generated: false };
  const file = path.join(dataDir, MASTER_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    return { key: Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'), generated: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  // 'wx': never overwrite a key another process wrote in the meantime.
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadMasterKey(undefined, dataDir);
    throw error;
  }
  return { key, generated: true };
}

/** AES-256-GCM key wrapping under a master key held by this process. */
export class LocalKms implements KeyManagementProvider {
  readonly id = 'local';

  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes');
  }

  async wrap(dataKey: Buffer): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, iv);
    const body = Buffer.concat([cipher.update(dataKey), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  async unwrap(wrapped: string): Promise<Buffer> {
    const raw = Buffer.from(wrapped, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.masterKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  }
}
