import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Envelope } from './envelope.js';
import { LocalKms, loadMasterKey } from './kms.js';

describe('envelope encryption', () => {
  const kms = new LocalKms(Buffer.alloc(32, 7));

  it('round-trips values, with a fresh IV for every value', async () => {
    const envelope = new Envelope(kms);
    const a = await envelope.encrypt('whsec_hello ✓');
    const b = await envelope.encrypt('whsec_hello ✓');
    expect(a).not.toBe(b);
    expect(a).not.toContain('hello');
    expect(a.startsWith('enc:v1:local:')).toBe(true);
    expect(await envelope.decrypt(a)).toBe('whsec_hello ✓');
    // another process with the same master key reads it
    expect(await new Envelope(new LocalKms(Buffer.alloc(32, 7))).decrypt(b)).toBe('whsec_hello ✓');
  });

  it('refuses a tampered ciphertext and a wrong master key', async () => {
    const envelope = new Envelope(kms);
    const value = await envelope.encrypt('secret');
    const parts = value.split(':');
    const body = Buffer.from(parts[6] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[6] = body.toString('base64url');
    await expect(envelope.decrypt(parts.join(':'))).rejects.toThrow();
    await expect(new Envelope(new LocalKms(Buffer.alloc(32, 8))).decrypt(value)).rejects.toThrow();
    await expect(envelope.decrypt('plain text')).rejects.toThrow(/not an Intake ciphertext/);
  });

  it('generates the master key once into DATA_DIR, private to its owner, and reads it back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-kms-'));
    try {
      const first = loadMasterKey(undefined, dir);
      expect(first.generated).toBe(true);
      expect(first.key).toHaveLength(32);
      expect(fs.statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
      const second = loadMasterKey(undefined, dir);
      expect(second.generated).toBe(false);
      expect(second.key.equals(first.key)).toBe(true);
      const configured = Buffer.alloc(32, 1);
      expect(loadMasterKey(configured, dir).key).toBe(configured);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
