import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  scrollsHorizontally,
  startWebServer,
  type View,
  type WebServer,
} from '../support/browser.js';
import { startSmtpServer, type TestSmtpServer } from '../support/mail.js';

/**
 * The dashboard (API.md §11.3) as a person uses it, in Chromium: signing up and in by the
 * fields "Email" and "Password", the environment switcher (remembered), API keys (shown once,
 * deleted after confirming), environments (a refusal explained), changing the password, logging
 * out and in again, and a forgotten password reset through the link the test SMTP server
 * received. Every view has no axe violation in light and dark and fits 320 CSS pixels.
 */

const PASSWORD = 'correct horse battery';

/**
 * What a visit may say in the console: the dashboard asks GET /auth/me who is signed in when the
 * shell found a live session (without one, no cookie or an ended one, it asks nothing), and a
 * session that ends while the tab is open is answered 401 (API.md §2), which Chromium logs.
 */
const signedOutProbe = (problem: string) => /auth\/me/.test(problem) && /401/.test(problem);
/** A refusal the test itself provoked (`status` for `path`), which Chromium logs too. */
const provoked = (status: number, path: string) => (problem: string) =>
  problem.includes(path) && problem.includes(String(status));
/** The problems of a view, but for the signed-out probe and what the test provoked. */
const unexpected = (problems: string[], ...allowed: Array<(problem: string) => boolean>) =>
  problems.filter((problem) => !signedOutProbe(problem) && !allowed.some((allow) => allow(problem)));

describe('the dashboard in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    [server, browser] = await Promise.all([startWebServer({ smtpUrl: smtp.url }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  let counter = 0;
  const newEmail = () => `person${++counter}-${Date.now()}@example.com`;

  /** Signs up through the form, as a person would; ends on the forms view. */
  async function signUp(page: Page, email: string) {
    if (new URL(page.url()).pathname !== '/app/signup') await page.goto(`${server.url}/app/signup`);
    await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
  }

  it('signs up, works in an environment it remembers, and keeps keys (shown once, deleted after confirming)', async () => {
    const view = await openPage(browser, `${server.url}/app`);
    const { page } = view;
    try {
      // signed out: /app leads to log-in, which leads to sign-up
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
      // a refusal shown by what caused it
      await page.getByLabel('Email').fill('not an address');
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect.poll(() => page.locator('.error').count()).toBeGreaterThan(0);
      expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');

      await signUp(page, newEmail());
      await expect.poll(() => page.title()).toBe('Forms – Intake');
      await expect(page.locator('.empty').textContent()).resolves.toContain('No forms in development yet');

      await page.getByLabel('Environment').selectOption('production');
      await expect(page.locator('.empty').textContent()).resolves.toContain('No forms in production yet');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
      expect(await page.getByLabel('Environment').inputValue()).toBe('production');

      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      await page.getByRole('button', { name: 'Create secret key' }).click();
      const shown = await page.locator('code.secret').textContent();
      expect(shown).toMatch(/^sk_(?:live|test)_|^sk-/);
      const last4 = shown?.slice(-4) ?? '';
      // the list is read again after the key is made: waited for, not read at once
      await page.getByRole('cell', { name: `…${last4}`, exact: true }).waitFor();
      // the key works (and its environment is production)
      const forms = await fetch(`${server.url}/forms?environment=production`, {
        headers: { authorization: `Bearer ${shown}` },
      });
      expect(forms.status).toBe(200);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      // shown once: gone after a reload, listed by its last four characters
      expect(await page.locator('code.secret').count()).toBe(0);
      await page.getByRole('button', { name: `Delete key …${last4}` }).click();
      await page.getByRole('button', { name: `Delete key …${last4}` }).click();
      await expect.poll(() => page.locator('.empty').count()).toBe(1);
      const refused = await fetch(`${server.url}/forms?environment=production`, {
        headers: { authorization: `Bearer ${shown}` },
      });
      expect(refused.status).toBe(401);
      // (the reloads above leave calls unanswered, which Chromium reports as aborted)
      expect(
        unexpected(view.problems, provoked(400, '/auth/signup'), (problem) =>
          problem.includes('net::ERR_ABORTED'),
        ),
      ).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('goes on working after a log-in in another tab (a new session: its CSRF token is fetched again)', async () => {
    const email = newEmail();
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      await signUp(page, email);
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      // loaded first: a read under way when the log-in ends this session would be a 401
      await page.getByText('No keys in development yet').waitFor();
      // another tab of the same browser logs in: the cookie now holds a new session
      const again = await view.context.request.post(`${server.url}/auth/login`, {
        data: { email, password: PASSWORD, cookie: true },
      });
      expect(again.status()).toBe(200);
      await page.getByRole('button', { name: 'Create secret key' }).click();
      await page.locator('code.secret').waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      // refused once (the stale token), then sent again with the fresh one
      expect(view.problems.some(provoked(403, '/keys/secrets'))).toBe(true);
      expect(unexpected(view.problems, provoked(403, '/keys/secrets'))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('makes no change in another user’s name after a log-in as them in another tab: it goes to log-in', async () => {
    const other = newEmail();
    const signup = await server.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email: other, password: PASSWORD },
    });
    expect(signup.status).toBe(201);
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      await signUp(page, newEmail());
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      // the view has loaded: no read of this tab is still under way when the session it rides on
      // ends (a cookie log-in ends the session it replaces; a read caught by that is a 401)
      await page.getByText('No keys in development yet').waitFor();
      // another tab of the same browser logs in as someone else: the shared cookie is now theirs
      const again = await view.context.request.post(`${server.url}/auth/login`, {
        data: { email: other, password: PASSWORD, cookie: true },
      });
      expect(again.status()).toBe(200);
      await page.getByRole('button', { name: 'Create secret key' }).click();
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      // and says why
      await page.getByText('This browser signed in to another account in another tab').waitFor();
      expect(await page.locator('code.secret').count()).toBe(0);
      // the other user got no key made in their name
      const keys = await server.request({
        method: 'GET',
        url: '/keys?environment=development',
        auth: signup.body.token as string,
      });
      expect(keys.body.data).toEqual([]);
      expect(unexpected(view.problems, provoked(403, '/keys/secrets'))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('creates an environment, explains why a non-empty one stays, and deletes an empty one', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      await signUp(page, newEmail());
      await page.getByRole('link', { name: 'Environments' }).click();
      await page.getByRole('heading', { level: 1, name: 'Environments' }).waitFor();
      await page.getByLabel('Name').fill('Bad Name!');
      await page.getByRole('button', { name: 'Create environment' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('Name').fill('staging');
      await page.getByRole('button', { name: 'Create environment' }).click();
      await page.getByText('staging is created.').waitFor();
      // a key in staging keeps it
      await page.getByLabel('Environment').selectOption('staging');
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('button', { name: 'Create publishable key' }).click();
      await page.locator('code.secret').waitFor();
      await page.getByRole('link', { name: 'Environments' }).click();
      await page.getByRole('button', { name: 'Delete staging' }).click();
      await page.getByRole('button', { name: 'Delete staging' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/key/);
      // the defaults have no delete button at all
      expect(await page.getByRole('button', { name: 'Delete development' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Create environment' }).waitFor();
      await page.getByLabel('Name').fill('scratch');
      await page.getByRole('button', { name: 'Create environment' }).click();
      await page.getByText('scratch is created.').waitFor();
      await page.getByRole('button', { name: 'Delete scratch' }).click();
      await page.getByRole('button', { name: 'Delete scratch' }).click();
      await page.getByText('scratch is deleted.').waitFor();
      expect(await page.getByText('scratch', { exact: true }).count()).toBe(0);
    } finally {
      await view.close();
    }
  });

  it('changes the password, logs out, and logs in again with the new one (the old one refused)', async () => {
    const email = newEmail();
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      await signUp(page, email);
      await page.getByRole('link', { name: 'Account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
      await page.getByLabel('Current password').fill('not my password');
      await page.getByLabel('New password').fill('a new password here');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('This is not your current password.').waitFor();
      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Your password is changed.').waitFor();

      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      // signed out for real: the dashboard's pages lead to log-in
      await page.goto(`${server.url}/app/keys`);
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toMatch(/wrong/);
      await page.getByLabel('Password').fill('a new password here');
      await page.getByRole('button', { name: 'Log in' }).click();
      // back where it was going
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/app/keys');
      expect(
        unexpected(view.problems, provoked(401, '/auth/password'), provoked(401, '/auth/login')),
      ).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('lists every environment’s API keys and webhooks on the account, and revokes them there', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      await signUp(page, newEmail());
      // made elsewhere, as someone who had the password might have: a key in production, a webhook in development
      const login = await view.context.request.get(`${server.url}/auth/me`);
      const { csrfToken } = (await login.json()) as { csrfToken: string };
      const changes = { headers: { 'x-csrf-token': csrfToken, origin: server.url } };
      const key = await view.context.request.post(
        `${server.url}/keys/secrets?environment=production`,
        changes,
      );
      expect(key.status()).toBe(201);
      const { last4 } = (await key.json()) as { last4: string };
      const form = await view.context.request.post(`${server.url}/forms`, {
        ...changes,
        data: { title: 'Feedback', environment: 'development', fields: [] },
      });
      const { id: formId } = (await form.json()) as { id: string };
      const hook = await view.context.request.post(`${server.url}/webhooks`, {
        ...changes,
        data: {
          formId,
          url: 'https://hooks.example.com/unknown/receiver-with-a-long-path',
          event: 'response.created',
          format: 'legacy',
        },
      });
      expect(hook.status()).toBe(201);

      await page.getByRole('link', { name: 'Account' }).click();
      await page.getByRole('heading', { level: 2, name: 'API keys and webhooks' }).waitFor();
      const production = page.getByRole('region', { name: 'production' });
      await production.getByText(`Secret key …${last4}`).waitFor();
      await production.getByRole('button', { name: `Revoke Secret key …${last4} (production)` }).click();
      await production.getByRole('button', { name: `Revoke key …${last4}` }).click();
      await production.getByText('No keys or webhooks.').waitFor();
      const development = page.getByRole('region', { name: 'development' });
      await development
        .getByText('Webhook to https://hooks.example.com/unknown/receiver-with-a-long-path')
        .waitFor();
      // a long address wraps on a phone
      await page.setViewportSize({ width: 320, height: 800 });
      await screenshot(page, 'dashboard-account-access-320-light');
      expect(await scrollsHorizontally(page)).toBe(false);
      await page.setViewportSize({ width: 1280, height: 800 });
      await development
        .getByRole('button', {
          name: 'Delete webhook to https://hooks.example.com/unknown/receiver-with-a-long-path (development)',
        })
        .click();
      await development.getByRole('button', { name: 'Delete webhook' }).click();
      await development.getByText('No keys or webhooks.').waitFor();
      // gone for the API too
      const keys = await view.context.request.get(`${server.url}/keys?environment=production`);
      expect(((await keys.json()) as { data: unknown[] }).data).toEqual([]);
      const hooks = await view.context.request.get(`${server.url}/webhooks?environment=development`);
      expect(((await hooks.json()) as { data: unknown[] }).data).toEqual([]);
      await expectNoAxeViolations(page);
      expect(unexpected(view.problems)).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('resets a forgotten password through the link of the mail, which works once', async () => {
    const email = newEmail();
    const setup = await openPage(browser, `${server.url}/app/signup`);
    await signUp(setup.page, email);
    await setup.close();

    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByRole('heading', { level: 1, name: 'Forgot password' }).waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByText(`If an account uses ${email}`).waitFor();
      const [mail] = (await smtp.waitFor((mails) => mails.some((m) => m.rcptTo.includes(email)))).filter(
        (m) => m.rcptTo.includes(email),
      );
      const link = /http:\/\/\S+\/app\/reset\?token=\S+/.exec(mail?.text ?? '')?.[0];
      expect(link?.startsWith(`${server.url}/app/reset?token=`)).toBe(true);

      await page.goto(link ?? '');
      await page.getByRole('heading', { level: 1, name: 'Set a new password' }).waitFor();
      await page.getByLabel('New password').fill('the reset password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Your new password is set: log in with it.').waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('Password').fill('the reset password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();

      // the link a second time
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      await page.goto(link ?? '');
      await page.getByLabel('New password').fill('yet another password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('This link is used already or expired.').waitFor();
    } finally {
      await view.close();
    }
  });

  describe('every view', () => {
    const VIEWS = [
      { path: '/app/login', name: 'Log in', signedIn: false },
      { path: '/app/signup', name: 'Sign up', signedIn: false },
      { path: '/app/forgot', name: 'Forgot password', signedIn: false },
      { path: '/app/reset?token=x', name: 'Set a new password', signedIn: false },
      { path: '/app', name: 'Forms', signedIn: true },
      { path: '/app/keys', name: 'API keys', signedIn: true },
      { path: '/app/environments', name: 'Environments', signedIn: true },
      { path: '/app/account', name: 'Account', signedIn: true },
      { path: '/app/nothing-here', name: 'Page not found', signedIn: true },
    ];

    for (const colorScheme of ['light', 'dark'] as const) {
      it(`has no axe violation and fits 320 CSS pixels (${colorScheme})`, async () => {
        const views: View[] = [];
        try {
          for (const width of [1280, 320]) {
            const view = await openPage(browser, `${server.url}/app/login`, { colorScheme, width });
            views.push(view);
            const email = newEmail();
            for (const entry of VIEWS) {
              if (entry.signedIn && !(await view.page.getByRole('button', { name: 'Log out' }).count()))
                await signUp(view.page, email);
              await view.page.goto(`${server.url}${entry.path}`);
              await view.page.getByRole('heading', { level: 1, name: entry.name }).waitFor();
              const label = `${entry.path} ${colorScheme} ${width}`;
              await screenshot(
                view.page,
                `dashboard-${entry.name.toLowerCase().replaceAll(' ', '-')}-${width}-${colorScheme}`,
              );
              await expectNoAxeViolations(view.page).catch((error: Error) => {
                throw new Error(`${label}: ${error.message}`);
              });
              expect(await scrollsHorizontally(view.page), label).toBe(false);
            }
            // (a view left before its calls are answered aborts them: not a problem of the page)
            expect(unexpected(view.problems, (problem) => problem.includes('net::ERR_ABORTED'))).toEqual([]);
          }
        } finally {
          for (const view of views) await view.close();
        }
      });
    }
  });

  it('is used with the keyboard alone: sign up, switch environment, create a key, log out', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    const focused = () =>
      page.evaluate(() => {
        const element = (globalThis as any).document.activeElement;
        return `${element.tagName.toLowerCase()}:${element.id || element.textContent.trim()}`;
      });
    const tabTo = async (target: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press('Tab');
        seen.push(await focused());
        if (seen.at(-1) === target) return;
      }
      throw new Error(`Tab never reached ${target}: ${seen.join(', ')}`);
    };
    try {
      await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
      await tabTo('input:email');
      await page.keyboard.type(newEmail());
      await tabTo('input:password');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
      await tabTo('a:API keys');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      await tabTo('button:Create secret key');
      await page.keyboard.press('Enter');
      await page.locator('code.secret').waitFor();
      // the key shown this once has the keyboard's focus, on its copy button (not the page's body)
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Copy key');
      await tabTo('button:Log out');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      expect(unexpected(view.problems)).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
