import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { storedCount } from '../../../test/support/assertions.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { PASSWORD_GUESSES } from '../../features/submissions/controls.js';

/**
 * API.md §15 on the hosted form, without JavaScript: the closed page instead of the form (not yet
 * open, closed, full; in the form's language and theme, with its closed message), a post to a
 * closed form answered with it; one response per browser (a signed cookie: a forged one is no
 * answer); one per address; the password page (a signed HttpOnly cookie on the form's path
 * unlocks it; wrong passwords rate-limited; a cookie edited by hand is refused).
 */

const HOUR = 3_600_000;
const PASSWORD = 'hosted secret 9';
const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
];
const ANSWERS = { name: 'Ada', email: 'ada@example.com' };

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

/** `name=value` of a Set-Cookie line, and the line. */
function cookieOf(response: Response, name: string): { pair: string; line: string } | undefined {
  const lines = [response.headers['set-cookie'] ?? []].flat();
  const line = lines.find((candidate) => candidate.startsWith(`${name}=`));
  return line ? { pair: line.split(';')[0] ?? '', line } : undefined;
}

describe('response controls on the hosted page', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitPublic: 1_000_000, trustProxy: 1 });
    owner = await signup(t);
  });
  afterAll(() => t.close());

  const liveForm = (access: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
    createForm(t, owner.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
      access,
      ...overrides,
    });

  const get = (formId: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: `/f/${formId}`, headers });

  const post = (formId: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url: `/f/${formId}`,
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });

  const showsForm = (page: Response) => /<form[^>]*data-form=/.test(page.text);

  describe('the closed page', () => {
    it('replaces a closed form, in its language and theme, with its closed message', async () => {
      const form = await liveForm(
        { closesAt: new Date(Date.now() - HOUR).toISOString(), closedMessage: 'Registration has ended.' },
        {
          ui: { layout: 'classic', theme: 'dark' },
          translations: { de: { closedMessage: 'Die Anmeldung ist beendet.' } },
        },
      );
      const page = await get(form.id, { 'accept-language': 'de' });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toMatch(/<html lang="de"[^>]*data-theme="dark"/);
      expect(page.text).toContain('<h1 class="form-title">Dieses Formular ist geschlossen</h1>');
      expect(text(page.text)).toContain('Die Anmeldung ist beendet.');
      expect(showsForm(page)).toBe(false);
      const english = await get(form.id);
      expect(english.text).toContain('This form is closed');
      expect(text(english.text)).toContain('Registration has ended.');
    });

    it('says a form is not open yet, in Intake’s words when the owner gave none', async () => {
      const form = await liveForm({ opensAt: new Date(Date.now() + HOUR).toISOString() });
      const page = await get(form.id);
      expect(page.text).toContain('This form is not open yet');
      expect(text(page.text)).toContain('It does not accept responses yet.');
      expect(showsForm(page)).toBe(false);
    });

    it('replaces a full form, and answers a post to it with the closed page, storing nothing', async () => {
      const form = await liveForm({ maxSubmissions: 1 });
      expect(showsForm(await get(form.id))).toBe(true);
      expect((await post(form.id, ANSWERS)).status).toBe(200);
      const full = await get(form.id);
      expect(full.text).toContain('This form is closed');
      expect(text(full.text)).toContain('It has received all the responses it can take.');
      const late = await post(form.id, { ...ANSWERS, email: 'bob@example.com' });
      expect(late.status).toBe(403);
      expect(late.text).toContain('This form is closed');
      expect(await storedCount(t, form.id)).toBe(1);
    });
  });

  describe('one response per browser', () => {
    it('remembers a submission in a signed cookie on the form’s path, and shows “already answered”', async () => {
      const form = await liveForm({
        oncePer: 'browser',
        closedMessage: 'Questions? Write to desk@example.com',
      });
      const sent = await post(form.id, ANSWERS);
      expect(sent.status).toBe(200);
      const cookie = cookieOf(sent, 'intake_answered');
      expect(cookie?.line).toMatch(new RegExp(`Path=/f/${form.id}(;|$)`));
      expect(cookie?.line).toMatch(/HttpOnly/);
      expect(cookie?.line).toMatch(/SameSite=Lax/);
      const again = await get(form.id, { cookie: cookie?.pair ?? '' });
      expect(again.text).toContain('You have already answered');
      // the closed page: Intake's reason, then the owner's closedMessage
      expect(text(again.text)).toContain(
        'This form takes one response per person, and yours has been received.',
      );
      expect(text(again.text)).toContain('Questions? Write to desk@example.com');
      expect(showsForm(again)).toBe(false);
      const post2 = await post(form.id, ANSWERS, { cookie: cookie?.pair ?? '' });
      expect(post2.status).toBe(403);
      expect(await storedCount(t, form.id)).toBe(1);
    });

    it('takes no cookie edited by hand, nor one of another form', async () => {
      const form = await liveForm({ oncePer: 'browser' });
      const other = await liveForm({ oncePer: 'browser' });
      const cookie = cookieOf(await post(other.id, ANSWERS), 'intake_answered')?.pair ?? '';
      expect(showsForm(await get(form.id, { cookie }))).toBe(true);
      const forged = `${cookie.slice(0, -2)}${cookie.endsWith('A') ? 'B' : 'A'}A`;
      expect(showsForm(await get(other.id, { cookie: forged }))).toBe(true);
      expect(showsForm(await get(other.id, { cookie: 'intake_answered=1' }))).toBe(true);
    });
  });

  it('answers a second response from one address with a readable page (409)', async () => {
    const form = await liveForm({ oncePer: 'email', emailField: 'email', closedMessage: 'See you there!' });
    expect((await post(form.id, ANSWERS)).status).toBe(200);
    const again = await post(form.id, { ...ANSWERS, email: 'ADA@example.com' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('You have already answered');
    expect(text(again.text)).toContain('A response from this e-mail address has been received already');
    expect(text(again.text)).toContain('See you there!');
    expect(await storedCount(t, form.id)).toBe(1);
  });

  describe('the password page', () => {
    const unlockCookie = (response: Response) => cookieOf(response, 'intake_unlocked');

    it('asks for the password first: a labelled password field posting to the form, and no form', async () => {
      const form = await liveForm({ password: PASSWORD });
      const page = await get(form.id);
      expect(page.status).toBe(200);
      expect(showsForm(page)).toBe(false);
      expect(page.text).toMatch(/<label class="field__label" for="intake-password">Password<\/label>/);
      expect(page.text).toMatch(/<input[^>]*id="intake-password"[^>]*type="password"[^>]*name="_password"/);
      expect(page.text).toMatch(new RegExp(`<form class="form" method="post" action="/f/${form.id}"`));
      expect(page.text).toContain('<title>Password required – Contact us</title>');
      expect(page.text).not.toContain(PASSWORD);
    });

    it('says a wrong password (401), unlocks with the right one (a signed HttpOnly cookie for this form), then takes answers', async () => {
      const form = await liveForm({ password: PASSWORD });
      const wrong = await post(form.id, { _password: 'nope' });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('That password is not right.');
      expect(wrong.text).toMatch(/aria-invalid="true"/);
      expect(unlockCookie(wrong)).toBeUndefined();

      const right = await post(form.id, { _password: PASSWORD });
      expect(right.status).toBe(303);
      expect(right.headers.location).toBe(`/f/${form.id}`);
      const cookie = unlockCookie(right);
      expect(cookie?.line).toMatch(new RegExp(`Path=/f/${form.id}(;|$)`));
      expect(cookie?.line).toMatch(/HttpOnly/);
      expect(cookie?.pair).not.toContain(PASSWORD);

      // answers without the cookie are refused with the password page, and nothing is stored
      const locked = await post(form.id, ANSWERS);
      expect(locked.status).toBe(401);
      expect(locked.text).toContain('name="_password"');
      const unlocked = await get(form.id, { cookie: cookie?.pair ?? '' });
      expect(showsForm(unlocked)).toBe(true);
      const sent = await post(form.id, ANSWERS, { cookie: cookie?.pair ?? '' });
      expect(sent.status).toBe(200);
      expect(await storedCount(t, form.id)).toBe(1);
    });

    it('refuses an unlock cookie edited by hand, one of another form, and one from before the password changed', async () => {
      const form = await liveForm({ password: PASSWORD });
      const other = await liveForm({ password: PASSWORD });
      const pair = unlockCookie(await post(form.id, { _password: PASSWORD }))?.pair ?? '';
      const [name, value = ''] = pair.split('=');
      const [until = '', signature = ''] = value.split('.');
      const later = `${name}=${(Number.parseInt(until, 36) + 10 * 365 * 86_400).toString(36)}.${signature}`;
      const resigned = `${name}=${until}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      for (const cookie of [later, resigned, `${name}=${until}`, `${name}=`]) {
        const page = await get(form.id, { cookie });
        expect(showsForm(page), cookie).toBe(false);
        expect(page.text).toContain('name="_password"');
      }
      expect(showsForm(await get(other.id, { cookie: pair }))).toBe(false);
      expect(showsForm(await get(form.id, { cookie: pair }))).toBe(true);
      const changed = await t.request({
        method: 'PUT',
        url: `/forms/${form.id}`,
        auth: owner.token,
        body: { access: { password: 'a new one' } },
      });
      expect(changed.status).toBe(200);
      expect(showsForm(await get(form.id, { cookie: pair }))).toBe(false);
    });

    it('refuses more guesses once too many were wrong (429), even the right one', async () => {
      const form = await liveForm({ password: PASSWORD });
      const ip = { 'x-forwarded-for': '203.0.113.77' };
      for (let i = 0; i < PASSWORD_GUESSES; i++)
        expect((await post(form.id, { _password: `guess ${i}` }, ip)).status).toBe(401);
      const limited = await post(form.id, { _password: PASSWORD }, ip);
      expect(limited.status).toBe(429);
      expect(limited.text).toContain('Too many wrong passwords.');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(unlockCookie(limited)).toBeUndefined();
      // another client is not locked out by these guesses
      expect(
        (await post(form.id, { _password: PASSWORD }, { 'x-forwarded-for': '203.0.113.78' })).status,
      ).toBe(303);
    });

    it('gates a ?preview=1 asked by anyone but the owner like any visit', async () => {
      const form = await liveForm({
        password: PASSWORD,
        closesAt: new Date(Date.now() - HOUR).toISOString(),
      });
      expect(form.access).toMatchObject({ hasPassword: true });
      const page = await get(`${form.id}?preview=1`);
      // anyone else asking for a preview gets what everyone gets: the closed page
      expect(page.text).toContain('This form is closed');
    });
  });

  describe('served over HTTPS (production)', () => {
    let secure: TestApp;
    beforeAll(async () => {
      secure = await createTestApp({ production: true, rateLimitPublic: 1_000_000 });
    });
    afterAll(() => secure?.close());

    it('sets the unlock cookie Secure, Lax at the form’s address and None; Partitioned in a frame', async () => {
      const user = await signup(secure);
      const form = await createForm(secure, user.token, {
        status: 'live',
        fields: FIELDS,
        access: { password: PASSWORD },
      });
      const unlock = (query: string) =>
        secure.request({
          method: 'POST',
          url: `/f/${form.id}${query}`,
          body: new URLSearchParams({ _password: PASSWORD }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      const own = cookieOf(await unlock(''), 'intake_unlocked')?.line ?? '';
      expect(own).toMatch(/; Secure/);
      expect(own).toMatch(/SameSite=Lax/);
      expect(own).not.toMatch(/Partitioned/);
      const framed = await unlock('?embed=1');
      expect(framed.headers.location).toBe(`/f/${form.id}?embed=1`);
      const line = cookieOf(framed, 'intake_unlocked')?.line ?? '';
      expect(line).toMatch(/; Secure/);
      expect(line).toMatch(/SameSite=None/);
      expect(line).toMatch(/Partitioned/);
      expect(line).toMatch(new RegExp(`Path=/f/${form.id}(;|$)`));
    });
  });
});
