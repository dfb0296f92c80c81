import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem } from '../../../test/support/assertions.js';
import { createForm, createKey, signup, type TestUser } from '../../../test/support/factories.js';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from '../../../test/support/mail.js';

/**
 * Passwords (API.md §2): change (the current password needed, 401 if wrong; the user's other
 * sessions revoked), and reset by e-mail (always 202; a single-use link to /app/reset, good for
 * an hour, stored as a hash; confirming sets the password and revokes every session; 400
 * `invalid_token` for an unknown, used or expired token).
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp(
    { smtpUrl: smtp.url, publicUrl: 'https://forms.example.com' },
    { outbox: { pollMs: 50, retryDelaysMs: [200, 200] } },
  );
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const login = (email: string, password: string) =>
  t.request({ method: 'POST', url: '/auth/login', body: { email, password } });
const me = (token: string) => t.request({ method: 'GET', url: '/auth/me', auth: token });
const requestReset = (email: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: '/auth/password-reset', body: { email }, headers });
const confirm = (token: string, password: string) =>
  t.request({ method: 'POST', url: '/auth/password-reset/confirm', body: { token, password } });

/** The reset mail sent to `email`, once it arrives, and the token of its link. */
async function resetMail(email: string): Promise<{ mail: ReceivedMail; token: string }> {
  const [mail] = (
    await smtp.waitFor((mails) => mails.some((received) => received.rcptTo.includes(email)))
  ).filter((received) => received.rcptTo.includes(email));
  const token = /https:\/\/forms\.example\.com\/app\/reset\?token=([A-Za-z0-9_%-]+)/.exec(
    mail?.text ?? '',
  )?.[1];
  if (!mail || !token) throw new Error(`no reset link in the mail to ${email}: ${mail?.text}`);
  return { mail, token: decodeURIComponent(token) };
}

describe('changing the password (POST /auth/password)', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signup(t);
  });

  it('refuses a wrong current password with 401 and a short new one with 400, changing nothing', async () => {
    const wrong = await t.request({
      method: 'POST',
      url: '/auth/password',
      auth: user.token,
      body: { currentPassword: 'not the password', newPassword: 'a brand new password' },
    });
    expectProblem(wrong, 401, 'unauthorized');
    const short = await t.request({
      method: 'POST',
      url: '/auth/password',
      auth: user.token,
      body: { currentPassword: user.password, newPassword: 'short' },
    });
    expectProblem(short, 400, 'validation_failed');
    expect((await login(user.email, user.password)).status).toBe(200);
    const anonymous = await t.request({
      method: 'POST',
      url: '/auth/password',
      body: { currentPassword: user.password, newPassword: 'a brand new password' },
    });
    expectProblem(anonymous, 401, 'unauthorized');
  });

  it('sets the new password and revokes every other session, keeping the one in use', async () => {
    const other = (await login(user.email, user.password)).body.token as string;
    const changed = await t.request({
      method: 'POST',
      url: '/auth/password',
      auth: user.token,
      body: { currentPassword: user.password, newPassword: 'a brand new password' },
    });
    expect(changed.status).toBe(204);
    expect(changed.text).toBe('');
    expect((await me(user.token)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expectProblem(await login(user.email, user.password), 401, 'unauthorized');
    expect((await login(user.email, 'a brand new password')).status).toBe(200);
  });

  it('needs the CSRF token with the cookie session', async () => {
    const someone = await signup(t);
    const cookieLogin = await t.request({
      method: 'POST',
      url: '/auth/login',
      body: { email: someone.email, password: someone.password, cookie: true },
    });
    const cookie = String(cookieLogin.headers['set-cookie']).split(';')[0] ?? '';
    const body = { currentPassword: someone.password, newPassword: 'another new password' };
    const without = await t.request({ method: 'POST', url: '/auth/password', headers: { cookie }, body });
    expectProblem(without, 403, 'forbidden');
    expect((await login(someone.email, someone.password)).status).toBe(200);
    const withToken = await t.request({
      method: 'POST',
      url: '/auth/password',
      headers: { cookie, 'x-csrf-token': cookieLogin.body.csrfToken },
      body,
    });
    expect(withToken.status).toBe(204);
  });
});

describe('resetting a forgotten password (POST /auth/password-reset, /confirm)', () => {
  it('answers 202 alike for an unknown address, and mails nothing', async () => {
    const before = smtp.received.length;
    const unknown = await requestReset('nobody-here@example.com');
    expect(unknown.status).toBe(202);
    expect(unknown.text).toBe('');
    const known = await signup(t);
    const answer = await requestReset(known.email.toUpperCase());
    expect(answer.status).toBe(202);
    expect(answer.text).toBe('');
    await resetMail(known.email);
    expect(
      smtp.received.slice(before).every((mail) => !mail.rcptTo.includes('nobody-here@example.com')),
    ).toBe(true);
  });

  it('mails a single-use link to /app/reset at PUBLIC_URL; confirming sets the password and revokes every session', async () => {
    const user = await signup(t);
    const second = (await login(user.email, user.password)).body.token as string;
    expect((await requestReset(user.email)).status).toBe(202);
    const { mail, token } = await resetMail(user.email);
    expect(mail.subject).toBe('Reset your Intake password');
    expect(mail.text).toContain('one hour');
    // stored only as its hash, and never in the clear in the outbox
    const dump = await dumpDatabase(t);
    expect(dump).toContain(sha256(token));
    expect(dump).not.toContain(token);

    expectProblem(await confirm(token, 'short'), 400, 'validation_failed');
    const done = await confirm(token, 'my new password!');
    expect(done.status).toBe(204);
    expect((await me(user.token)).status).toBe(401);
    expect((await me(second)).status).toBe(401);
    expectProblem(await login(user.email, user.password), 401, 'unauthorized');
    expect((await login(user.email, 'my new password!')).status).toBe(200);
    // used: refused a second time
    expectProblem(await confirm(token, 'yet another password'), 400, 'invalid_token');
    expect((await login(user.email, 'my new password!')).status).toBe(200);
  });

  it('refuses an unknown or expired token with 400 invalid_token, the password unchanged', async () => {
    expectProblem(await confirm('no-such-token', 'a good password'), 400, 'invalid_token');
    const user = await signup(t);
    await requestReset(user.email);
    const first = await resetMail(user.email);
    await t.app.intake.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', sha256(first.token))
      .execute();
    expectProblem(await confirm(first.token, 'a good password'), 400, 'invalid_token');
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('revokes outstanding links when the password is changed', async () => {
    const user = await signup(t);
    await requestReset(user.email);
    const { token } = await resetMail(user.email);
    await t.request({
      method: 'POST',
      url: '/auth/password',
      auth: user.token,
      body: { currentPassword: user.password, newPassword: 'changed meanwhile' },
    });
    expectProblem(await confirm(token, 'a good password'), 400, 'invalid_token');
  });
});

/** The mail telling `email` its password changed, once it arrives. */
async function changedMail(email: string): Promise<ReceivedMail> {
  const about = (mail: ReceivedMail) =>
    mail.rcptTo.includes(email) && mail.subject === 'Your Intake password was changed';
  const [mail] = (await smtp.waitFor((mails) => mails.some(about))).filter(about);
  if (!mail) throw new Error(`no password-changed mail to ${email}`);
  return mail;
}

// Issue 19: whoever had the account could have left keys and webhooks behind, which outlive a new password.
describe('the mail after a password is set: what else reaches the account', () => {
  it("a change lists the account's API keys and webhooks, and where to revoke them", async () => {
    const user = await signup(t);
    const secret = await createKey(t, user, 'secret', 'production');
    const publishable = await createKey(t, user, 'publishable', 'development');
    const form = await createForm(t, user.token);
    const hook = await t.request({
      method: 'POST',
      url: '/webhooks',
      auth: user.token,
      body: {
        formId: form.id,
        event: 'response.created',
        url: 'https://hooks.example.com/services/T0/B0/s3cr3tPath',
      },
    });
    expect(hook.status, hook.text).toBe(201);
    const changed = await t.request({
      method: 'POST',
      url: '/auth/password',
      auth: user.token,
      body: { currentPassword: user.password, newPassword: 'a brand new password' },
    });
    expect(changed.status).toBe(204);

    const mail = await changedMail(user.email);
    expect(mail.text).toContain(`secret key …${secret.key.slice(-4)} (environment production`);
    expect(mail.text).toContain(`publishable key …${publishable.key.slice(-4)} (environment development`);
    expect(mail.text).toContain(`response.created to https://hooks.example.com (form ${form.id}`);
    // a webhook's path often is its secret (chat services' incoming hooks): only the origin is mailed
    expect(mail.text).not.toContain('s3cr3tPath');
    expect(mail.text).toContain('https://forms.example.com/app/account');
    for (const secretText of [secret.key, publishable.key]) expect(mail.text).not.toContain(secretText);
  });

  it('a reset sends it too once the link is used, saying when there is nothing to list', async () => {
    const user = await signup(t);
    await requestReset(user.email);
    const { token } = await resetMail(user.email);
    expect((await confirm(token, 'my new password!')).status).toBe(204);
    const mail = await changedMail(user.email);
    expect(mail.text).toContain('API keys: none.');
    expect(mail.text).toContain('Webhooks: none.');
    expect(mail.text).toContain('https://forms.example.com/app/account');
  });

  it('is not sent when the change is refused', async () => {
    const user = await signup(t);
    const wrong = await t.request({
      method: 'POST',
      url: '/auth/password',
      auth: user.token,
      body: { currentPassword: 'not the password', newPassword: 'a brand new password' },
    });
    expectProblem(wrong, 401, 'unauthorized');
    const rows = await t.app.intake.database.db
      .selectFrom('outbox')
      .select('payload')
      .where('payload', 'like', `%${user.id}%`)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('where a reset link leads without PUBLIC_URL', () => {
  let local: TestApp;
  let inbox: TestSmtpServer;
  beforeAll(async () => {
    inbox = await startSmtpServer();
    local = await createTestApp({ smtpUrl: inbox.url }, { outbox: { pollMs: 50 } });
  });
  afterAll(async () => {
    await local?.close();
    await inbox?.close();
  });

  it('is the loopback origin the request came to, and nowhere for another Host (which anyone can send)', async () => {
    const user = await signup(local);
    const asked = (host: string) =>
      local.request({
        method: 'POST',
        url: '/auth/password-reset',
        body: { email: user.email },
        headers: { host },
      });
    // a Host that only looks like this machine's (user info, a path) leads nowhere either
    for (const host of [
      'evil.example',
      'localhost:@evil.example',
      '127.0.0.1:1@evil.example',
      '[::1]@evil.example',
      'localhost:80/x',
      'localhost.evil.example',
    ])
      expect((await asked(host)).status, host).toBe(202);
    expect((await asked('127.0.0.1:3000')).status).toBe(202);
    const mails = await inbox.waitFor((received) => received.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inbox.received).toHaveLength(1);
    expect(mails[0]?.text).toMatch(/http:\/\/127\.0\.0\.1:3000\/app\/reset\?token=/);
    expect(inbox.received.map((mail) => mail.text).join('')).not.toContain('evil.example');
  });
});

describe('how often', () => {
  it('is rate-limited like log-in, per address asked for', async () => {
    const strict = await createTestApp({ rateLimitAuth: 2 });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push((await requestResetOn(strict, 'someone@example.com')).status);
      expect(answers).toEqual([202, 202, 429]);
    } finally {
      await strict.close();
    }
  });
});

const requestResetOn = (app: TestApp, email: string) =>
  app.request({ method: 'POST', url: '/auth/password-reset', body: { email } });
