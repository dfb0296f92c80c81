import { describe, expect, it } from 'vitest';
import type { SpamProtection } from '../forms/schemas.js';
import { type CaptchaVerifier, judgeSpam } from './spam.js';

/**
 * The spam verdict names what found it (API.md §6.1): the hosted page tells a respondent whose
 * CAPTCHA failed to do it again, and anyone else only that the response was refused.
 */

const verifier = (ok: boolean): CaptchaVerifier => ({
  verify: async () => ({ ok, reason: ok ? '' : 'the CAPTCHA was not solved (invalid-input-response)' }),
});

const PROTECTION: SpamProtection = {
  honeypot: { field: 'website' },
  rules: [{ field: 'message', op: 'contains', value: 'casino' }],
  captcha: { provider: 'turnstile', siteKey: 'site', secret: 'sealed' },
  action: 'reject',
};

const judge = (input: {
  answers?: Record<string, unknown>;
  honeypot?: unknown;
  token?: string;
  ok?: boolean;
}) =>
  judgeSpam({
    protection: PROTECTION,
    captchaSecret: async () => 'secret',
    answers: input.answers ?? {},
    honeypotValue: input.honeypot,
    captchaToken: input.token,
    remoteIp: undefined,
    verifier: verifier(input.ok ?? true),
  });

describe('the spam verdict', () => {
  it('passes what nothing finds', async () => {
    expect(await judge({ token: 'good' })).toEqual({ spam: false });
  });

  it('names its source: the honeypot first, then a rule, then the CAPTCHA', async () => {
    const all = { answers: { message: 'Casino!' }, honeypot: 'http://spam.example', ok: false };
    expect(await judge({ ...all, token: 'bad' })).toMatchObject({ spam: true, source: 'honeypot' });
    expect(await judge({ ...all, honeypot: '', token: 'bad' })).toMatchObject({ spam: true, source: 'rule' });
    expect(await judge({ token: 'bad', ok: false })).toMatchObject({ spam: true, source: 'captcha' });
    expect(await judge({})).toMatchObject({
      spam: true,
      source: 'captcha',
      reason: 'no CAPTCHA token was sent',
    });
  });
});
