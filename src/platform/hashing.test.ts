import { describe, expect, it } from 'vitest';
import { PasswordHasher, sha256Hex } from './hashing.js';

describe('sha256Hex', () => {
  it('is the SHA-256 of the text as UTF-8, in hex: the stored token hashes stay valid', () => {
    // FIPS 180-2's example, and a text beyond ASCII (its bytes hashed, not its UTF-16 units)
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('café')).toBe('850f7dc43910ff890f8879c0ed26fe697c93a067ad93a7d50f466a7028a9bf4e');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('PasswordHasher', () => {
  it('hashes with scrypt at N = 2^15, r = 8, p = 1 unless asked otherwise, a salt of its own each time', async () => {
    const hasher = new PasswordHasher();
    const [first, second] = [await hasher.hash('correct horse'), await hasher.hash('correct horse')];
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(second).not.toBe(first);
    expect(await hasher.verify('correct horse', first)).toBe(true);
    expect(await hasher.verify('correct horsf', first)).toBe(false);
  });

  it('verifies a hash made at any cost, with the cost the hash names', async () => {
    const cheap = await new PasswordHasher(10).hash('battery staple');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await new PasswordHasher().verify('battery staple', cheap)).toBe(true);
    expect(
      await new PasswordHasher(10).verify(
        'battery staple',
        await new PasswordHasher().hash('battery staple'),
      ),
    ).toBe(true);
  });

  it('refuses what is no scrypt hash of its own making', async () => {
    const hasher = new PasswordHasher(10);
    for (const stored of ['', 'bcrypt$2b$10$abc', 'scrypt$1024$8$1$c2FsdA==', 'plain text']) {
      expect(await hasher.verify('anything', stored)).toBe(false);
    }
  });

  it('keeps one decoy hash to verify against for unknown accounts', async () => {
    const hasher = new PasswordHasher(10);
    const decoy = await hasher.decoyHash();
    expect(await hasher.decoyHash()).toBe(decoy);
    expect(await hasher.verify('', decoy)).toBe(false);
  });
});
