import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, isCspSource, newNonce } from './csp.js';

const directives = (policy: string) =>
  Object.fromEntries(
    policy.split('; ').map((directive) => {
      const [name = '', ...values] = directive.split(' ');
      return [name, values];
    }),
  );

describe('contentSecurityPolicy', () => {
  it('is strict by default: same origin only, no plugins, no <base>, no framing, forms to self', () => {
    expect(contentSecurityPolicy()).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it('never allows eval or inline code without a nonce', () => {
    for (const policy of [contentSecurityPolicy(), contentSecurityPolicy({ nonce: newNonce() })]) {
      expect(policy).not.toMatch(/unsafe-(?:eval|inline|hashes)|data:|\*/);
    }
  });

  it('lets a page run its own inline script with a nonce, fresh every time', () => {
    const nonce = newNonce();
    expect(nonce).not.toBe(newNonce());
    const policy = directives(contentSecurityPolicy({ nonce }));
    expect(policy['script-src']).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(policy['style-src']).toEqual(["'self'", `'nonce-${nonce}'`]);
  });

  it('lets a form lead to the origin of its redirect (form-action), and only to an origin', () => {
    const policy = directives(contentSecurityPolicy({ formActionOrigins: ['https://example.com:8443'] }));
    expect(policy['form-action']).toEqual(["'self'", 'https://example.com:8443']);
    expect(() =>
      contentSecurityPolicy({ formActionOrigins: ["https://x.com; script-src 'unsafe-inline'"] }),
    ).toThrow(/not a source/);
    expect(isCspSource('https://example.com')).toBe(true);
    expect(isCspSource('https://[::1]:8080')).toBe(false);
    expect(isCspSource('javascript:alert(1)')).toBe(false);
  });

  it('widens exactly what a page names: its framers (embedding), a provider’s scripts and frames', () => {
    const policy = directives(
      contentSecurityPolicy({
        frameAncestors: ['https://example.com', 'https://*.example.org:8443'],
        scriptOrigins: ['https://challenges.cloudflare.com'],
        frameOrigins: ['https://challenges.cloudflare.com'],
      }),
    );
    expect(policy['frame-ancestors']).toEqual(['https://example.com', 'https://*.example.org:8443']);
    expect(policy['script-src']).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(policy['frame-src']).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(policy['default-src']).toEqual(["'self'"]);
  });

  it.each([
    ['a directive smuggled in', "https://example.com; script-src 'unsafe-inline'"],
    ['a second value', 'https://a.example https://b.example'],
    ['a keyword that loosens', "'unsafe-inline'"],
    ['a scheme source', 'data:'],
    ['a path', 'https://example.com/x'],
    ['a header break', 'https://example.com\r\nSet-Cookie: a=b'],
  ])('refuses a source with %s', (_name, source) => {
    expect(() => contentSecurityPolicy({ frameAncestors: [source] })).toThrow(/not a source/);
  });

  it('refuses a nonce that is not one', () => {
    expect(() => contentSecurityPolicy({ nonce: "x' 'unsafe-inline" })).toThrow(/nonce/);
    expect(() => contentSecurityPolicy({ nonce: 'short' })).toThrow(/nonce/);
  });
});
