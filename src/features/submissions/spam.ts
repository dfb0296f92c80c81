import type { CaptchaProvider } from '../../shared/form.js';
import type { Answers } from '../../shared/logic.js';
import type { SpamProtection } from '../forms/schemas.js';

/**
 * Spam protection (API.md §6.1): the honeypot, a CAPTCHA verified server-side with its
 * provider, and the form's own rules. Runs before validation.
 */

/** What found a submission to be spam: the page tells the respondent apart by it (a CAPTCHA is theirs to mend). */
export type SpamSource = 'honeypot' | 'rule' | 'captcha';

export type SpamVerdict = { spam: false } | { spam: true; source: SpamSource; reason: string };

export interface CaptchaVerifier {
  verify(input: {
    provider: CaptchaProvider;
    secret: string;
    token: string;
    remoteIp: string | undefined;
    minScore: number | undefined;
  }): Promise<{ ok: boolean; reason: string }>;
}

/** The providers' siteverify protocol: a form post of secret, response and remoteip, a JSON answer. */
export function captchaVerifier(urls: Record<CaptchaProvider, string>, timeoutMs = 5000): CaptchaVerifier {
  return {
    async verify({ provider, secret, token, remoteIp, minScore }) {
      const body = new URLSearchParams({ secret, response: token });
      if (remoteIp) body.set('remoteip', remoteIp);
      let answer: { success?: unknown; score?: unknown; 'error-codes'?: unknown };
      try {
        const response = await fetch(urls[provider], {
          method: 'POST',
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        answer = (await response.json()) as typeof answer;
      } catch (error) {
        // The provider could not be asked: the submission cannot be shown to be human.
        return { ok: false, reason: `the CAPTCHA provider did not answer (${(error as Error).message})` };
      }
      if (answer.success !== true) {
        const codes = Array.isArray(answer['error-codes'])
          ? answer['error-codes'].join(', ')
          : 'no reason given';
        return { ok: false, reason: `the CAPTCHA was not solved (${codes})` };
      }
      // reCAPTCHA scores how human (1.0 = surely human); hCaptcha Enterprise scores risk
      // (1.0 = surely a bot). minScore always means "at least this human".
      const human =
        typeof answer.score !== 'number'
          ? undefined
          : provider === 'hcaptcha'
            ? 1 - answer.score
            : answer.score;
      if (minScore !== undefined && human !== undefined && human < minScore) {
        return { ok: false, reason: `the CAPTCHA score ${answer.score} is below the minimum of ${minScore}` };
      }
      return { ok: true, reason: '' };
    },
  };
}

const asText = (value: unknown): string =>
  Array.isArray(value)
    ? value.map(String).join(' ')
    : value === undefined || value === null
      ? ''
      : String(value);

/** Rule patterns compiled once, not on every submission (they are checked safe when the form is saved). */
const rulePatterns = new Map<string, RegExp>();
function rulePattern(source: string): RegExp {
  let pattern = rulePatterns.get(source);
  if (!pattern) {
    pattern = new RegExp(source, 'u');
    rulePatterns.set(source, pattern);
    if (rulePatterns.size > 5000) rulePatterns.delete(rulePatterns.keys().next().value as string);
  }
  return pattern;
}

/**
 * Judges a submission: honeypot, then rules, then CAPTCHA. `honeypotValue` is the honeypot
 * read from wherever the client put it (the route has taken it out of the answers).
 */
export async function judgeSpam(input: {
  protection: SpamProtection | null;
  /** The CAPTCHA secret, decrypted: asked for only when a token is to be verified. */
  captchaSecret: () => Promise<string | undefined>;
  answers: Answers;
  honeypotValue: unknown;
  captchaToken: string | undefined;
  remoteIp: string | undefined;
  verifier: CaptchaVerifier;
}): Promise<SpamVerdict> {
  const { protection } = input;
  if (!protection) return { spam: false };
  if (protection.honeypot && asText(input.honeypotValue).trim() !== '') {
    return { spam: true, source: 'honeypot', reason: 'the honeypot field was filled in' };
  }
  for (const rule of protection.rules ?? []) {
    const value = asText(Object.hasOwn(input.answers, rule.field) ? input.answers[rule.field] : undefined);
    const hit =
      rule.op === 'equals'
        ? value === rule.value
        : rule.op === 'contains'
          ? value.toLowerCase().includes(rule.value.toLowerCase())
          : rulePattern(rule.value).test(value);
    if (hit)
      return { spam: true, source: 'rule', reason: `the spam rule on ${rule.field} (${rule.op}) matched` };
  }
  if (protection.captcha) {
    if (!input.captchaToken) return { spam: true, source: 'captcha', reason: 'no CAPTCHA token was sent' };
    const result = await input.verifier.verify({
      provider: protection.captcha.provider,
      secret: (await input.captchaSecret()) ?? '',
      token: input.captchaToken,
      remoteIp: input.remoteIp,
      minScore: protection.captcha.minScore,
    });
    if (!result.ok) return { spam: true, source: 'captcha', reason: result.reason };
  }
  return { spam: false };
}
