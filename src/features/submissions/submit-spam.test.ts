import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem } from '../../../test/support/assertions.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';

/**
 * API.md §6.1 spam protection: the honeypot, the custom rules, CAPTCHA for Turnstile,
 * hCaptcha and reCAPTCHA checked against a fake verify server speaking the providers'
 * siteverify protocol on loopback, and the three actions (reject, flag, quarantine).
 */

type Provider = 'turnstile' | 'hcaptcha' | 'recaptcha';
const PROVIDERS: Provider[] = ['turnstile', 'hcaptcha', 'recaptcha'];

interface Verification {
  path: string;
  method: string;
  contentType: string | undefined;
  params: Record<string, string>;
}

/**
 * The fake provider. The token says how to answer: `pass~…`, `fail~…`, `score=0.7~…`
 * (success with that score), `drop~…` (the connection is cut), `html500~…` (a 500 page).
 */
const verifications: Verification[] = [];
const verifyServer = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
  });
  request.on('end', () => {
    const params = Object.fromEntries(new URLSearchParams(body));
    verifications.push({
      path: request.url ?? '',
      method: request.method ?? '',
      contentType: request.headers['content-type'],
      params,
    });
    const kind = (params.response ?? '').split('~')[0] ?? '';
    if (kind === 'drop') {
      request.socket.destroy();
      return;
    }
    if (kind === 'html500') {
      response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
      return;
    }
    let answer: Record<string, unknown>;
    if (!params.secret) answer = { success: false, 'error-codes': ['missing-input-secret'] };
    else if (kind === 'pass') answer = { success: true, hostname: 'example.com' };
    else if (kind.startsWith('score=')) answer = { success: true, score: Number(kind.slice(6)) };
    else answer = { success: false, 'error-codes': ['invalid-input-response'] };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});

let t: TestApp;
let verifyBase: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => verifyServer.listen(0, '127.0.0.1', resolve));
  verifyBase = `http://127.0.0.1:${(verifyServer.address() as AddressInfo).port}`;
  t = await createTestApp({
    rateLimitPublic: 1_000_000,
    captchaVerifyUrls: {
      turnstile: `${verifyBase}/turnstile/v0/siteverify`,
      hcaptcha: `${verifyBase}/hcaptcha/siteverify`,
      recaptcha: `${verifyBase}/recaptcha/api/siteverify`,
    },
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => verifyServer.close(resolve));
});

const unique = () => randomBytes(6).toString('hex');
const token = (kind: string) => `${kind}~${unique()}`;
const PATHS: Record<Provider, string> = {
  turnstile: '/turnstile/v0/siteverify',
  hcaptcha: '/hcaptcha/siteverify',
  recaptcha: '/recaptcha/api/siteverify',
};

const FIELDS = [
  { id: 'name', type: 'text', label: 'Name', required: true },
  { id: 'message', type: 'textarea', label: 'Message' },
];
const ANSWERS = { name: 'Ada', message: 'Hello there' };

function submitTo(formId: string, body: Record<string, unknown>): Promise<Response> {
  return t.request({ method: 'POST', url: `/forms/${formId}/submit`, body });
}

async function spamForm(owner: TestUser, spamProtection: Record<string, unknown>): Promise<string> {
  return (await createForm(t, owner.token, { status: 'live', fields: FIELDS, spamProtection })).id;
}

async function storedRows(formId: string) {
  return t.app.intake.database.db
    .selectFrom('submissions')
    .select(['id', 'status', 'answers'])
    .where('form_id', '=', formId)
    .execute();
}

async function listIds(owner: TestUser, formId: string, query = ''): Promise<string[]> {
  const response = await t.request({
    method: 'GET',
    url: `/responses?form_id=${formId}&environment=development${query}`,
    auth: owner.token,
  });
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((item: any) => `${item.id}:${item.status}`);
}

const verificationsFor = (value: string) => verifications.filter((v) => v.params.response === value);

describe('honeypot', () => {
  const owner = {} as TestUser;
  let formId: string;
  beforeAll(async () => {
    Object.assign(owner, await signup(t));
    formId = await spamForm(owner, { honeypot: { field: 'website' }, action: 'reject' });
  });

  it.each([
    ['filled', 'http://spam.example'],
    ['filled with a number', 1],
    ['filled with a list', ['x']],
  ])('%s: spam (reject → 400 spam_detected, nothing stored)', async (_name, value) => {
    const response = await submitTo(formId, { answers: { ...ANSWERS, website: value } });
    expectProblem(response, 400, 'spam_detected');
    expect(await storedRows(formId)).toHaveLength(0);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['null', null],
  ])('%s: accepted, and the honeypot is neither an unknown field nor stored', async (_name, value) => {
    const response = await submitTo(formId, { answers: { ...ANSWERS, website: value } });
    expect(response.status, response.text).toBe(201);
    expect(response.body.status).toBe('accepted');
    const row = (await storedRows(formId)).find((r) => r.id === response.body.id);
    expect(JSON.parse(row?.answers ?? '{}')).toEqual(ANSWERS);
  });

  it('absent: accepted', async () => {
    const response = await submitTo(formId, { answers: ANSWERS });
    expect(response.status, response.text).toBe(201);
  });

  it('under flag, the honeypot value is removed and never stored', async () => {
    const flagOwner = await signup(t);
    const flagForm = await spamForm(flagOwner, { honeypot: { field: 'website' }, action: 'flag' });
    const bait = `bait-${unique()}`;
    const response = await submitTo(flagForm, { answers: { ...ANSWERS, website: bait } });
    expect(response.status, response.text).toBe(201);
    expect(response.body.status).toBe('flagged');
    const [row] = await storedRows(flagForm);
    expect(row?.status).toBe('flagged');
    expect(JSON.parse(row?.answers ?? '{}')).toEqual(ANSWERS);
    expect(await dumpDatabase(t)).not.toContain(bait);
  });

  it.each(['toString', 'constructor', 'valueOf', 'hasOwnProperty'])(
    'a honeypot named %s (a name every object has) is not filled unless sent',
    async (name) => {
      const otherOwner = await signup(t);
      const form = await spamForm(otherOwner, { honeypot: { field: name }, action: 'reject' });
      const clean = await submitTo(form, { answers: ANSWERS });
      expect(clean.status, clean.text).toBe(201);
      expect(clean.body.status).toBe('accepted');
      expectProblem(await submitTo(form, { answers: { ...ANSWERS, [name]: 'x' } }), 400, 'spam_detected');
    },
  );
});

describe('rules', () => {
  const owner = {} as TestUser;
  let formId: string;
  beforeAll(async () => {
    Object.assign(owner, await signup(t));
    formId = await spamForm(owner, {
      rules: [
        { field: 'message', op: 'contains', value: 'viagra' },
        { field: 'message', op: 'matches', value: 'https?://\\S+' },
        { field: 'name', op: 'equals', value: 'Crypto King' },
      ],
      action: 'reject',
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['contains (case-insensitive)', { name: 'Ann', message: 'Cheap VIAGRA here' }],
    ['matches (a regex, anywhere in the value)', { name: 'Ann', message: 'see https://spam.example/x now' }],
    ['equals', { name: 'Crypto King', message: 'hi' }],
  ])('%s makes the submission spam', async (_name, answers) => {
    const response = await submitTo(formId, { answers });
    expectProblem(response, 400, 'spam_detected');
    expect(await storedRows(formId)).toHaveLength(0);
  });

  it.each<[string, Record<string, unknown>]>([
    ['no rule matching', { name: 'Ann', message: 'A real question about pricing' }],
    ['equals only on the whole value', { name: 'Crypto King Jr', message: 'hi' }],
    ['rules on an absent field', { name: 'Ann' }],
  ])('%s: accepted', async (_name, answers) => {
    const response = await submitTo(formId, { answers });
    expect(response.status, response.text).toBe(201);
    expect(response.body.status).toBe('accepted');
  });
});

describe('CAPTCHA', () => {
  const owner = {} as TestUser;
  const forms = {} as Record<Provider, { id: string; secret: string }>;

  beforeAll(async () => {
    Object.assign(owner, await signup(t));
    for (const provider of PROVIDERS) {
      const secret = `${provider}-secret-${unique()}`;
      const id = await spamForm(owner, {
        captcha: { provider, siteKey: `${provider}-site-key`, secret },
        action: 'reject',
      });
      forms[provider] = { id, secret };
    }
  });

  describe.each(PROVIDERS)('%s', (provider) => {
    it('a solved CAPTCHA is verified at the provider with the form secret, the token and the client IP', async () => {
      const { id, secret } = forms[provider];
      const solved = token('pass');
      const response = await submitTo(id, { answers: ANSWERS, captchaToken: solved });
      expect(response.status, response.text).toBe(201);
      expect(response.body.status).toBe('accepted');
      const seen = verificationsFor(solved);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toEqual({
        path: PATHS[provider],
        method: 'POST',
        contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/),
        params: { secret, response: solved, remoteip: '127.0.0.1' },
      });
    });

    it('a failed CAPTCHA is spam', async () => {
      const failed = token('fail');
      const response = await submitTo(forms[provider].id, { answers: ANSWERS, captchaToken: failed });
      expectProblem(response, 400, 'spam_detected');
      expect(verificationsFor(failed)).toHaveLength(1);
    });

    it('a missing token is spam, without asking the provider', async () => {
      const before = verifications.length;
      expectProblem(await submitTo(forms[provider].id, { answers: ANSWERS }), 400, 'spam_detected');
      expectProblem(
        await submitTo(forms[provider].id, { answers: ANSWERS, captchaToken: '' }),
        400,
        'spam_detected',
      );
      expect(verifications.length).toBe(before);
    });

    it.each([
      ['cuts the connection', 'drop'],
      ['answers 500 with an HTML page', 'html500'],
    ])('a provider that %s: spam', async (_name, kind) => {
      const value = token(kind);
      const response = await submitTo(forms[provider].id, { answers: ANSWERS, captchaToken: value });
      expectProblem(response, 400, 'spam_detected');
      expect(verificationsFor(value)).toHaveLength(1);
    });
  });

  it('of all those submissions only the solved one is stored', async () => {
    for (const provider of PROVIDERS) expect(await storedRows(forms[provider].id)).toHaveLength(1);
  });

  describe('reCAPTCHA minScore', () => {
    let formId: string;
    beforeAll(async () => {
      formId = await spamForm(owner, {
        captcha: { provider: 'recaptcha', siteKey: 'v3-site', secret: 'v3-secret', minScore: 0.5 },
        action: 'reject',
      });
    });

    it.each([
      ['0.9', 201],
      ['0.5', 201],
      ['0.49', 400],
      ['0', 400],
    ])('score %s → %i', async (score, status) => {
      const value = token(`score=${score}`);
      const response = await submitTo(formId, { answers: ANSWERS, captchaToken: value });
      if (status === 201) expect(response.status, response.text).toBe(201);
      else expectProblem(response, 400, 'spam_detected');
      expect(verificationsFor(value)[0]?.params.secret).toBe('v3-secret');
    });
  });

  describe('hCaptcha minScore (hCaptcha scores risk: 1.0 is surely a bot)', () => {
    let formId: string;
    beforeAll(async () => {
      formId = await spamForm(owner, {
        captcha: { provider: 'hcaptcha', siteKey: 'ent-site', secret: 'ent-secret', minScore: 0.5 },
        action: 'reject',
      });
    });

    it.each([
      ['0.1', 201],
      ['0.5', 201],
      ['0.51', 400],
      ['1', 400],
    ])('risk score %s → %i', async (score, status) => {
      const value = token(`score=${score}`);
      const response = await submitTo(formId, { answers: ANSWERS, captchaToken: value });
      if (status === 201) expect(response.status, response.text).toBe(201);
      else expectProblem(response, 400, 'spam_detected');
    });
  });

  it('a provider that is down (nothing listening) makes the submission spam', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = `http://127.0.0.1:${port}/siteverify`;
    const app = await createTestApp({
      captchaVerifyUrls: { turnstile: down, hcaptcha: down, recaptcha: down },
    });
    try {
      const user = await signup(app);
      for (const provider of PROVIDERS) {
        const form = await createForm(app, user.token, {
          status: 'live',
          fields: FIELDS,
          spamProtection: { captcha: { provider, siteKey: 'site', secret: 'secret' }, action: 'flag' },
        });
        const response = await app.request({
          method: 'POST',
          url: `/forms/${form.id}/submit`,
          body: { answers: ANSWERS, captchaToken: token('pass') },
        });
        expect(response.status, response.text).toBe(201);
        expect(response.body.status).toBe('flagged');
      }
    } finally {
      await app.close();
    }
  });
});

describe('actions', () => {
  it('reject: 400 spam_detected and nothing stored, even when the answers are also invalid', async () => {
    const owner = await signup(t);
    const formId = await spamForm(owner, { honeypot: { field: 'hp' }, action: 'reject' });
    expectProblem(await submitTo(formId, { answers: { ...ANSWERS, hp: 'x' } }), 400, 'spam_detected');
    expectProblem(await submitTo(formId, { answers: { hp: 'x', nope: 1 } }), 400, 'spam_detected');
    expect(await storedRows(formId)).toHaveLength(0);
    expect(await listIds(owner, formId)).toEqual([]);
  });

  it('flag: stored with status flagged, and listed by default', async () => {
    const owner = await signup(t);
    const formId = await spamForm(owner, {
      honeypot: { field: 'hp' },
      rules: [{ field: 'message', op: 'contains', value: 'casino' }],
      action: 'flag',
    });
    const good = await submitTo(formId, { answers: ANSWERS });
    const byHoneypot = await submitTo(formId, { answers: { ...ANSWERS, hp: 'x' } });
    const byRule = await submitTo(formId, { answers: { name: 'Bo', message: 'Online Casino' } });
    expect([good.status, byHoneypot.status, byRule.status]).toEqual([201, 201, 201]);
    expect([good.body.status, byHoneypot.body.status, byRule.body.status]).toEqual([
      'accepted',
      'flagged',
      'flagged',
    ]);
    expect((await listIds(owner, formId)).sort()).toEqual(
      [`${good.body.id}:accepted`, `${byHoneypot.body.id}:flagged`, `${byRule.body.id}:flagged`].sort(),
    );
    expect((await listIds(owner, formId, '&status=flagged')).sort()).toEqual(
      [`${byHoneypot.body.id}:flagged`, `${byRule.body.id}:flagged`].sort(),
    );
  });

  it('flag: a flagged submission is still validated', async () => {
    const owner = await signup(t);
    const formId = await spamForm(owner, { honeypot: { field: 'hp' }, action: 'flag' });
    const response = await submitTo(formId, { answers: { hp: 'x', message: 'no name' } });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([{ field: 'name', code: 'required', message: expect.any(String) }]);
    expect(await storedRows(formId)).toHaveLength(0);
  });

  it('quarantine: stored with status quarantined, left out of the default list, shown with status=quarantined', async () => {
    const owner = await signup(t);
    const formId = await spamForm(owner, { honeypot: { field: 'hp' }, action: 'quarantine' });
    const good = await submitTo(formId, { answers: ANSWERS });
    const spam = await submitTo(formId, { answers: { ...ANSWERS, hp: 'x' } });
    expect(spam.status, spam.text).toBe(201);
    expect(spam.body.status).toBe('quarantined');
    const rows = await storedRows(formId);
    expect(rows.map((row) => `${row.id}:${row.status}`).sort()).toEqual(
      [`${good.body.id}:accepted`, `${spam.body.id}:quarantined`].sort(),
    );
    expect(await listIds(owner, formId)).toEqual([`${good.body.id}:accepted`]);
    expect(await listIds(owner, formId, '&status=quarantined')).toEqual([`${spam.body.id}:quarantined`]);
    const single = await t.request({
      method: 'GET',
      url: `/responses/${spam.body.id}?form_id=${formId}&environment=development`,
      auth: owner.token,
    });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ id: spam.body.id, status: 'quarantined', answers: ANSWERS });
  });

  it('quarantine by a failed CAPTCHA', async () => {
    const owner = await signup(t);
    const formId = await spamForm(owner, {
      captcha: { provider: 'turnstile', siteKey: 'site', secret: 'turnstile-secret' },
      action: 'quarantine',
    });
    const response = await submitTo(formId, { answers: ANSWERS, captchaToken: token('fail') });
    expect(response.status, response.text).toBe(201);
    expect(response.body.status).toBe('quarantined');
    expect(await listIds(owner, formId)).toEqual([]);
  });
});
