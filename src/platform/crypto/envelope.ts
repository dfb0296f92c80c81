import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyManagementProvider } from './kms.js';

const PREFIX = 'enc:v1';

/**
 * Envelope encryption of short values (secrets, PII answers) with AES-256-GCM.
 * One data key per process is wrapped once by the KMS and stored beside each value:
 * `enc:v1:<kms id>:<wrapped data key>:<iv>:<tag>:<ciphertext>`. Unwrapped keys are cached,
 * so decrypting a page of values costs at most one KMS call per distinct data key.
 */
export class Envelope {
  private current: Promise<{ key: Buffer; wrapped: string }> | undefined;
  private readonly unwrapped = new Map<string, Promise<Buffer>>();

  constructor(private readonly kms: KeyManagementProvider) {}

  private dataKey() {
    this.current ??= (async () => {
      const key = randomBytes(32);
      const wrapped = await this.kms.wrap(key);
      this.unwrapped.set(wrapped, Promise.resolve(key));
      return { key, wrapped };
    })();
    return this.current;
  }

  async encrypt(plaintext: string): Promise<string> {
    const { key, wrapped } = await this.dataKey();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [PREFIX, this.kms.id, wrapped, ...parts].join(':');
  }

  async decrypt(ciphertext: string): Promise<string> {
    const [enc, version, kmsId, wrapped, iv, tag, body] = ciphertext.split(':');
    if (`${enc}:${version}` !== PREFIX || !wrapped || !iv || !tag || body === undefined) {
      throw new Error('not an Intake ciphertext');
    }
    if (kmsId !== this.kms.id) throw new Error(`the value was encrypted by the "${kmsId}" key provider`);
    let key = this.unwrapped.get(wrapped);
    if (!key) {
      key = this.kms.unwrap(wrapped);
      this.unwrapped.set(wrapped, key);
      key.catch(() => this.unwrapped.delete(wrapped));
    }
    const decipher = createDecipheriv('aes-256-gcm', await key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
