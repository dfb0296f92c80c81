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
 * Teams in the dashboard (API.md §14, issue 21 item 7), in Chromium: an owner makes a workspace
 * and invites a colleague (the link read from the test SMTP server), who signs up through it in
 * another browser context, accepts, switches workspace and sees the shared form; demoted to
 * viewer, the builder's controls are disabled; removed, the workspace is gone from their switcher;
 * the audit log says each step. The server's refusals (the last owner, another account, a used
 * link) are shown in words. Keyboard alone for the switcher and the invite form; every new view
 * without an axe violation, in light and dark, at 320 CSS pixels.
 */

const PASSWORD = 'correct horse battery';

/** What a visit with an ended session may say in the console: GET /auth/me answers 401 for it. */
const signedOutProbe = (problem: string) => /auth\/me/.test(problem) && /401/.test(problem);
/** A refusal the test itself provoked (`status` for `path`), which Chromium logs too. */
const provoked = (status: number, path: string) => (problem: string) =>
  problem.includes(path) && problem.includes(String(status));
const aborted = (problem: string) => problem.includes('net::ERR_ABORTED');
const unexpected = (problems: string[], ...allowed: Array<(problem: string) => boolean>) =>
  problems.filter(
    (problem) => !signedOutProbe(problem) && !aborted(problem) && !allowed.some((allow) => allow(problem)),
  );

describe('teams in the dashboard', () => {
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
  const newEmail = (who: string) => `${who}${++counter}-${Date.now()}@example.com`;

  async function signUp(page: Page, email: string, landing = 'Forms') {
    if (new URL(page.url()).pathname !== '/app/signup') await page.goto(`${server.url}/app/signup`);
    await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: landing }).waitFor();
  }

  /** A call of the API with the view's session cookie (and its CSRF token), in `workspace` when given. */
  async function call(view: View, method: string, path: string, data?: unknown, workspace?: string) {
    const me = await view.context.request.get(`${server.url}/auth/me`);
    const { csrfToken } = (await me.json()) as { csrfToken: string };
    const answer = await view.context.request.fetch(`${server.url}${path}`, {
      method,
      headers: { 'x-csrf-token': csrfToken, ...(workspace ? { 'x-intake-workspace': workspace } : {}) },
      ...(data === undefined ? {} : { data }),
    });
    expect(answer.status(), `${method} ${path}: ${await answer.text()}`).toBeLessThan(300);
    return answer.status() === 204 ? undefined : answer.json();
  }

  /** The invitation link mailed to `email` (the latest). */
  async function invitationLink(email: string): Promise<string> {
    const mails = (await smtp.waitFor((all) => all.some((mail) => mail.rcptTo.includes(email)))).filter(
      (mail) => mail.rcptTo.includes(email),
    );
    const link = /http:\/\/\S+\/app\/invite\?token=\S+/.exec(mails.at(-1)?.text ?? '')?.[0];
    expect(link?.startsWith(`${server.url}/app/invite?token=`)).toBe(true);
    return link ?? '';
  }

  /** Signs up `email`, makes the workspace `name` through the Members view; its id. */
  async function ownerWithWorkspace(view: View, email: string, name: string): Promise<string> {
    const { page } = view;
    await signUp(page, email);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await page.getByText('is your personal workspace').waitFor();
    await page.getByLabel('Name of the new workspace').fill(name);
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText(`Of the ${name} workspace`).waitFor();
    expect(await page.getByLabel('Workspace', { exact: true }).inputValue()).toMatch(/^wsp_/);
    return page.getByLabel('Workspace', { exact: true }).inputValue();
  }

  it('invites a colleague who signs up through the link, shares a form, is demoted to viewer, promoted to editor and edits, is removed, and the log says it all', async () => {
    const ada = newEmail('ada');
    const bob = newEmail('bob');
    const owner = await openPage(browser, `${server.url}/app/signup`);
    const colleague = await openPage(browser, `${server.url}/app/login`);
    try {
      const { page } = owner;
      const acme = await ownerWithWorkspace(owner, ada, 'Acme');
      const form = (await call(
        owner,
        'POST',
        '/forms',
        {
          title: 'Contact',
          environment: 'development',
          status: 'live',
          fields: [{ id: 'message', type: 'textarea', label: 'Message' }],
        },
        acme,
      )) as {
        id: string;
      };

      // the last owner cannot step down: the server's 409, in words
      await page.getByLabel(`Role of ${ada}`).selectOption('admin');
      await page.getByText('A workspace always keeps an owner').waitFor();
      expect(await page.getByLabel(`Role of ${ada}`).inputValue()).toBe('owner');

      await page.getByRole('textbox', { name: 'Email' }).fill(bob);
      await page.getByLabel('Role', { exact: true }).selectOption('editor');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`is on its way to ${bob}`).waitFor();
      await page.getByRole('button', { name: `Revoke the invitation to ${bob}` }).waitFor();
      const link = await invitationLink(bob);

      // the colleague opens the link signed out: the token leaves the address at once
      const other = colleague.page;
      // what the sign-up and the acceptance are sent with: the token in their body, never in a Referer
      const referers: string[] = [];
      other.on('request', (request) => {
        if (/\/auth\/signup|\/invitations\/accept/.test(request.url()))
          referers.push(request.headers().referer ?? '');
      });
      await other.goto(link);
      await other.getByRole('heading', { level: 1, name: 'Join a workspace' }).waitFor();
      await expect.poll(() => new URL(other.url()).search).toBe('');
      // what the link offers, before any log-in
      await other.getByText(`${ada} invites ${bob} to join Acme as editor.`).waitFor();
      await other.getByRole('link', { name: 'Sign up to accept' }).click();
      await signUp(other, bob, 'Join a workspace');
      await other.getByRole('button', { name: 'Accept the invitation' }).click();
      await other.getByText('You joined Acme as editor').waitFor();
      expect(referers).toHaveLength(2);
      for (const referer of referers) expect(referer).not.toContain('token=');
      expect(await other.getByLabel('Workspace', { exact: true }).inputValue()).toBe(acme);
      await other.getByRole('link', { name: 'See its forms' }).click();
      await other.getByRole('link', { name: 'Contact', exact: true }).waitFor();

      // the shared inbox: a note the colleague writes names them to the owner
      const sent = await fetch(`${server.url}/forms/${form.id}/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { message: 'Hello team' } }),
      });
      expect(sent.status).toBe(201);
      await other.getByRole('link', { name: 'Inbox: Contact' }).click();
      await other.locator('.inbox__row').first().getByRole('button').click();
      await other.getByText('No notes yet. Everyone in this workspace sees them').waitFor();
      await other.getByRole('textbox', { name: 'Note' }).fill('I will answer this one');
      await other.getByRole('button', { name: 'Add note' }).click();
      await other.locator('.notes').getByText(`${bob} · just now`).waitFor();
      await page.goto(`${server.url}/app/forms/${form.id}/inbox`);
      await page.locator('.inbox__row').first().getByRole('button').click();
      await page.locator('.notes').getByText(`${bob} · just now`).waitFor();
      await other.goto(`${server.url}/app`);

      // switching: the personal workspace has no form; back in Acme, remembered across a reload
      await other.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Personal (personal)' });
      await other.getByText('No forms in development yet').waitFor();
      await other.getByLabel('Workspace', { exact: true }).selectOption(acme);
      await other.getByRole('link', { name: 'Contact', exact: true }).waitFor();
      await other.reload();
      await other.getByRole('link', { name: 'Contact', exact: true }).waitFor();
      expect(await other.getByLabel('Workspace', { exact: true }).inputValue()).toBe(acme);

      // demoted to viewer: the builder reads, its controls disabled with the reason
      await page.goto(`${server.url}/app/members`);
      await page.getByLabel(`Role of ${bob}`).selectOption('viewer');
      await page.getByText(`${bob} is now viewer.`).waitFor();
      // a viewer makes no form, deletes no response, sees no keys: each said in place
      await other.goto(`${server.url}/app`);
      await other.getByRole('link', { name: 'Contact', exact: true }).waitFor();
      expect(await other.getByRole('button', { name: 'New form' }).isDisabled()).toBe(true);
      await other
        .getByText('Your role here (viewer) does not allow this: it needs editor or above.')
        .waitFor();
      await other.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
      await other.getByText('Admins and owners make and delete this workspace').waitFor();
      await other.getByRole('navigation').getByRole('link', { name: 'Members' }).click();
      await other.getByText('Admins and owners change roles and remove members.').waitFor();
      expect(await other.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
      expect(await other.getByRole('button', { name: `Remove ${ada}` }).count()).toBe(0);
      await other.getByRole('button', { name: 'Leave Acme' }).waitFor();
      await expectNoAxeViolations(other);
      await other.goto(`${server.url}/app/forms/${form.id}/webhooks`);
      await other.getByText('Editors add, change and delete webhooks.').waitFor();
      await other.goto(`${server.url}/app/forms/${form.id}`);
      await other.getByText('You can read this form, not change it.').waitFor();
      expect(await other.locator('#form-title').isDisabled()).toBe(true);
      expect(await other.getByRole('button', { name: 'Add field' }).isDisabled()).toBe(true);
      await screenshot(other, 'teams-viewer-builder-1280-light', { fullPage: false });
      await expectNoAxeViolations(other);

      // promoted to editor by the keyboard: the arrows go through the roles and save none of
      // them (Chromium fires `change` at each step); Enter saves the one reached, once
      const roleChanges: string[] = [];
      const heard = (request: { method(): string; url(): string }) => {
        if (request.method() === 'PATCH' && request.url().includes('/members/'))
          roleChanges.push(request.url());
      };
      page.on('request', heard);
      await page.getByLabel(`Role of ${bob}`).focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.getByText('Enter to apply, Esc to undo').waitFor();
      expect(await page.getByLabel(`Role of ${bob}`).inputValue()).toBe('admin');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.getByText(`${bob} is now editor.`).waitFor();
      expect(roleChanges).toHaveLength(1);
      page.off('request', heard);
      await other.reload();
      await expect.poll(() => other.locator('#form-title').isDisabled()).toBe(false);
      await other.locator('#form-title').fill('Contact the team');
      await other.getByRole('button', { name: 'Save', exact: true }).click();
      await other.getByText(/^Saved as unpublished changes/).waitFor();
      await other.getByRole('button', { name: 'Publish changes' }).click();
      await other.getByText('Published: respondents now get version 2.').waitFor();
      const published = await server.request({ method: 'GET', url: `/v1/forms/${form.id}/public` });
      expect(published.body.title).toBe('Contact the team');

      // removed: gone from the colleague's switcher at the next load
      await page.getByRole('button', { name: `Remove ${bob}` }).click();
      await page.getByRole('button', { name: `Remove ${bob}` }).click();
      await page.getByText(`${bob} is no longer a member.`).waitFor();
      // their next reads are refused (the forms list's three, Chromium logs each): they are taken back to their personal workspace, and told why
      await other.getByRole('navigation').getByRole('link', { name: 'Forms' }).click();
      await other.getByText('You are no longer a member of Acme').waitFor();
      await other.getByText('No forms in development yet').waitFor();
      expect(await other.getByLabel('Workspace', { exact: true }).count()).toBe(0);

      // the used link says so plainly
      await other.goto(link);
      await other.getByText('This invitation link is used already, revoked or expired').waitFor();
      expect(await other.getByRole('button', { name: 'Accept the invitation' }).count()).toBe(0);

      // the audit log, newest first, in words
      await page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      const entries = page.locator('.audit__entry .audit__what');
      await entries.first().waitFor();
      const said = await entries.allTextContents();
      expect(said.slice(0, 9)).toEqual([
        `${ada} removed ${bob}`,
        expect.stringMatching(new RegExp(`^${bob} published the edits of form`)),
        `${ada} changed the role of ${bob}`,
        `${ada} changed the role of ${bob}`,
        expect.stringMatching(new RegExp(`^${bob} wrote a note on response sub_`)),
        // opening the response in the inbox marked it read: a change, recorded (API.md §14)
        expect.stringMatching(new RegExp(`^${bob} marked read response sub_`)),
        `${bob} accepted an invitation and joined`,
        `${ada} sent an invitation`,
        `${ada} created form Contact the team`,
      ]);
      await page.getByLabel('What').selectOption('member');
      await expect.poll(() => entries.count()).toBe(3);
      await page.getByLabel('Who').selectOption({ label: bob });
      await page.getByLabel('What').selectOption('');
      await expect
        .poll(() => entries.allTextContents())
        .toEqual([
          expect.stringMatching(new RegExp(`^${bob} published the edits of form`)),
          expect.stringMatching(new RegExp(`^${bob} wrote a note on response sub_`)),
          expect.stringMatching(new RegExp(`^${bob} marked read response sub_`)),
          `${bob} accepted an invitation and joined`,
        ]);
      expect(await page.locator('.audit__when').first().textContent()).toMatch(
        /from (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/,
      );

      expect(unexpected(owner.problems, provoked(409, '/members/'))).toEqual([]);
      expect(
        unexpected(
          colleague.problems,
          provoked(400, '/invitations/preview'),
          provoked(403, '/forms'),
          provoked(403, '/responses/summary'),
          provoked(403, '/webhooks?'),
        ),
      ).toEqual([]);
    } finally {
      await owner.close();
      await colleague.close();
    }
  });

  it('says plainly when the link is another address’s, and keeps it for the right account', async () => {
    const owner = await openPage(browser, `${server.url}/app/signup`);
    const stranger = await openPage(browser, `${server.url}/app/signup`);
    try {
      const acme = await ownerWithWorkspace(owner, newEmail('ada'), 'Globex');
      const invited = newEmail('carol');
      await call(owner, 'POST', `/workspaces/${acme}/invitations`, { email: invited, role: 'viewer' });
      const link = await invitationLink(invited);
      const someoneElse = newEmail('mallory');
      await signUp(stranger.page, someoneElse);
      await stranger.page.goto(link);
      // said before any click: the link names another address
      await stranger.page.getByText('The invitation is for another address').waitFor();
      await stranger.page.getByRole('button', { name: 'Accept the invitation' }).click();
      await stranger.page
        .getByText(`This invitation was sent to another address than yours (${someoneElse})`)
        .waitFor();
      // logged out, the link is still there for the invited address
      await stranger.page.getByRole('button', { name: 'Log out' }).last().click();
      await stranger.page.getByRole('link', { name: 'Sign up to accept' }).click();
      await signUp(stranger.page, invited, 'Join a workspace');
      await stranger.page.getByRole('button', { name: 'Accept the invitation' }).click();
      await stranger.page.getByText('You joined Globex as viewer').waitFor();
      expect(unexpected(stranger.problems, provoked(403, '/invitations/accept'))).toEqual([]);
    } finally {
      await owner.close();
      await stranger.close();
    }
  });

  it('loads more of the audit log on the cursor, and filters it by dates', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const team = await ownerWithWorkspace(view, newEmail('ada'), 'Renamed often');
      // 1 creation and 54 renames: more than one page of 50
      for (let i = 1; i <= 54; i++) await call(view, 'PATCH', `/workspaces/${team}`, { name: `Name ${i}` });
      await page.goto(`${server.url}/app/audit`);
      const entries = page.locator('.audit__entry');
      await expect.poll(() => entries.count()).toBe(50);
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => entries.count()).toBe(55);
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      expect(await entries.last().locator('.audit__what').textContent()).toMatch(/created the workspace$/);

      const today = new Date().toISOString().slice(0, 10);
      await page.getByLabel('From').fill('2099-01-01');
      await page.getByText('Nothing recorded that matches these filters.').waitFor();
      await page.getByLabel('From').fill('');
      await page.getByLabel('To').fill('2000-01-01');
      await page.getByText('Nothing recorded that matches these filters.').waitFor();
      await page.getByLabel('From').fill(today);
      await page.getByText('“To” is before “From”.').waitFor();
      await page.getByLabel('To').fill(today);
      await expect.poll(() => entries.count()).toBe(50);
      expect(unexpected(view.problems)).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('is used with the keyboard alone: the workspace switcher and the invite form', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    const focused = () =>
      page.evaluate(() => {
        const element = (globalThis as any).document.activeElement;
        return `${element.tagName.toLowerCase()}:${element.id || element.textContent.trim()}`;
      });
    const tabTo = async (target: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        seen.push(await focused());
        if (seen.at(-1) === target) return;
      }
      throw new Error(`Tab never reached ${target}: ${seen.join(', ')}`);
    };
    try {
      const team = await ownerWithWorkspace(view, newEmail('ada'), 'Initech');
      await page.goto(`${server.url}/app`);
      await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
      // the personal workspace is the first choice: up from Initech
      await tabTo('select:workspace-switcher');
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => page.getByLabel('Workspace', { exact: true }).inputValue()).not.toBe(team);
      // reached by a key, held (the dashboard does not switch at each step) until Enter or Tab
      await page.getByText('Enter to apply, Esc to undo').waitFor();
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => page.getByLabel('Workspace', { exact: true }).inputValue()).toBe(team);

      await tabTo('a:Members');
      await page.keyboard.press('Enter');
      await page.getByText('Of the Initech workspace').waitFor();
      const invited = newEmail('dave');
      await tabTo('input:invite-email');
      await page.keyboard.type(invited);
      await tabTo('select:invite-role');
      await page.keyboard.press('ArrowDown');
      expect(await page.getByLabel('Role', { exact: true }).inputValue()).toBe('viewer');
      await tabTo('button:Send invitation');
      await page.keyboard.press('Enter');
      await page.getByText(`is on its way to ${invited}`).waitFor();
      expect(unexpected(view.problems)).toEqual([]);
    } finally {
      await view.close();
    }
  });

  describe('every new view', () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`has no axe violation and fits 320 CSS pixels (${colorScheme})`, async () => {
        for (const width of [1280, 320]) {
          const view = await openPage(browser, `${server.url}/app/invite?token=made-up`, {
            colorScheme,
            width,
          });
          const { page } = view;
          try {
            const label = (what: string) => `${what} ${colorScheme} ${width}`;
            const check = async (what: string, name: string) => {
              await page.getByRole('heading', { level: 1, name }).waitFor();
              await screenshot(page, `teams-${what}-${width}-${colorScheme}`);
              await expectNoAxeViolations(page).catch((error: Error) => {
                throw new Error(`${label(what)}: ${error.message}`);
              });
              // what sticks out, named in the failure
              const overflowing = await page.evaluate(() =>
                [...(globalThis as any).document.querySelectorAll('*')]
                  .filter((element: any) => element.getBoundingClientRect().right > 321)
                  .map(
                    (element: any) =>
                      `${element.tagName}.${element.className}#${element.id} ${Math.round(element.getBoundingClientRect().right)}`,
                  )
                  .slice(0, 10),
              );
              expect(await scrollsHorizontally(page), `${label(what)} ${overflowing.join(', ')}`).toBe(false);
            };
            await check('invite-signed-out', 'Join a workspace');

            const email = newEmail('ada');
            const team = await ownerWithWorkspace(view, email, 'A workspace with a rather long name');
            const colleague = newEmail('a-colleague-with-a-long-address');
            await call(view, 'POST', `/workspaces/${team}/invitations`, { email: colleague, role: 'editor' });
            await page.goto(`${server.url}/app/members`);
            await page.getByRole('button', { name: `Revoke the invitation to ${colleague}` }).waitFor();
            await check('members', 'Members');

            await page.goto(`${server.url}/app/audit`);
            await page.locator('.audit__entry').first().waitFor();
            await check('audit', 'Audit log');

            // a link that will never work says so as the page opens, with nothing to click
            await page.goto(`${server.url}/app/invite?token=made-up`);
            await page.getByText('This invitation link is used already').waitFor();
            await check('invite', 'Join a workspace');
            expect(unexpected(view.problems, provoked(400, '/invitations/preview'))).toEqual([]);
          } finally {
            await view.close();
          }
        }
      });
    }
  });
});
