import fs from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  posting,
  screenshot,
  scrollsHorizontally,
  startWebServer,
  type WebServer,
} from '../support/browser.js';
import { createLiveForm, dashboardNoise, signUpInPage } from '../support/dashboard.js';
import { startSmtpServer, type TestSmtpServer } from '../support/mail.js';

/**
 * A form's inbox in the dashboard (API.md §11.3; issue 13), as a person uses it: a response
 * sent on the hosted page appears; it is starred, noted, marked unread and read, replied to
 * (the test SMTP server gets the mail), exported (the downloaded CSV holds exactly the rows the
 * inbox shows for the filter) and deleted, each checked against the server. The keys j, k, s
 * and u, the date range, "Load more", and the forms list's counts following new responses.
 */

const noise = dashboardNoise();

interface Stored {
  id: string;
  read: boolean;
  starred: boolean;
  answers: Record<string, unknown>;
  notes: Array<{ text: string }>;
}

describe('the inbox in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    [server, browser] = await Promise.all([
      startWebServer({ rateLimitPublic: 1_000_000, smtpUrl: smtp.url }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  /** Signs up in the page, and makes a live form with `count` responses sent through the API. */
  async function withResponses(page: Page, count: number) {
    const { token } = await signUpInPage(page, server, 'inbox');
    const formId = await createLiveForm(server, token, {
      ui: { layout: 'classic' },
      fields: [
        { id: 'name', type: 'text', label: 'Your name' },
        { id: 'message', type: 'textarea', label: 'Message' },
        { id: 'email', type: 'email', label: 'Email' },
      ],
    });
    for (let i = 1; i <= count; i++) await send(formId, { name: `Person ${i}`, message: `Message ${i}` });
    const stored = async (query = '') =>
      (
        await server.request({
          method: 'GET',
          url: `/responses?form_id=${formId}&environment=development${query}`,
          auth: token,
        })
      ).body.data as Stored[];
    return { token, formId, stored };
  }

  async function send(formId: string, answers: Record<string, string>) {
    const sent = await server.request({ method: 'POST', url: `/forms/${formId}/submit`, body: { answers } });
    expect(sent.status).toBe(201);
  }

  /** Presses Tab until `found` holds for the focused element (at most 60 times), as a keyboard user moves. */
  async function tabTo(page: Page, found: (element: Element) => boolean) {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const active = await page.evaluateHandle(() => document.activeElement as Element);
      if (await active.evaluate(found)) return;
    }
    throw new Error(`Tab never reached ${found}`);
  }

  /** The CSV the page's "Export CSV" link downloads, as the browser saves it. */
  async function download(page: Page): Promise<string[][]> {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const raw = await fs.readFile((await file.path()) as string, 'utf8');
    // made for a spreadsheet (issue 25): a byte-order mark first, so Excel reads UTF-8
    expect(raw.charAt(0)).toBe('\uFEFF');
    const text = raw.slice(1);
    // every cell is quoted (RFC 4180); none of these tests' cells holds a comma, a quote or a line break
    return text
      .split(/\r?\n/)
      .filter(Boolean)
      .map((line) => line.split(',').map((cell) => cell.replace(/^"(.*)"$/, '$1')));
  }

  it('takes a response from the hosted page through star, note, unread, read, reply, export and delete', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { token, formId, stored } = await withResponses(page, 2);
      await page.reload();
      // the forms list counts what is there, and follows what arrives without a reload
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: 'Feedback' }) });
      await expect.poll(() => card.textContent()).toContain('2 responses');

      const visitor = await openPage(browser, `${server.url}/f/${formId}`);
      try {
        await visitor.page.getByLabel('Your name').fill('Ada Lovelace');
        await visitor.page.getByLabel('Message').fill('Hello from the page');
        await visitor.page.getByLabel('Email').fill('ada@example.com');
        await posting(visitor.page, () => visitor.page.getByRole('button', { name: 'Submit' }).click());
        await visitor.page.getByRole('heading', { level: 1, name: /thank/i }).waitFor();
      } finally {
        await visitor.close();
      }
      // as when the person comes back to the tab
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await expect.poll(() => card.textContent()).toContain('3 responses');
      await expect.poll(() => card.textContent()).toContain('3 unread');

      await page.getByRole('link', { name: 'Inbox: Feedback' }).click();
      await page.getByRole('heading', { level: 1, name: 'Inbox: Feedback' }).waitFor();
      const rows = page.locator('.inbox__row');
      await expect.poll(() => rows.count()).toBe(3);
      // newest first: the hosted page's, unread, with its first answers by label
      await expect
        .poll(() => rows.first().textContent())
        .toMatch(/^Unread.*Your name: Ada Lovelace · Message: Hello from the page$/);
      expect(await page.locator('.inbox__row--unread').count()).toBe(3);

      // nothing is starred yet
      await page.getByLabel('Starred only').check();
      await page.getByText('No responses here yet').waitFor();
      await page.getByLabel('Starred only').uncheck();
      await expect.poll(() => rows.count()).toBe(3);

      await rows.first().getByRole('button').click();
      await page.getByRole('heading', { level: 2, name: /^Response of / }).waitFor();
      await expect
        .poll(() => page.locator('.answers').textContent())
        .toBe('Your nameAda LovelaceMessageHello from the pageEmailada@example.com');
      // opened is read
      await expect.poll(async () => (await stored())[0]?.read).toBe(true);
      const ada = (await stored())[0] as Stored;
      expect(ada.answers.name).toBe('Ada Lovelace');

      await page.getByRole('button', { name: 'Star', exact: true }).click();
      await expect.poll(async () => (await stored())[0]?.starred).toBe(true);
      await page.getByLabel('Starred only').check();
      await expect.poll(() => rows.count()).toBe(1);
      await rows.first().getByRole('button').click();

      await page.getByRole('textbox', { name: 'Note' }).fill('Called her back on Tuesday');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.locator('.notes').getByText('Called her back on Tuesday').waitFor();
      await expect
        .poll(async () => (await stored())[0]?.notes.map((note) => note.text))
        .toEqual(['Called her back on Tuesday']);

      await page.getByRole('button', { name: 'Mark unread' }).click();
      await expect.poll(async () => (await stored())[0]?.read).toBe(false);
      await page.getByRole('button', { name: 'Mark read' }).click();
      await expect.poll(async () => (await stored())[0]?.read).toBe(true);

      await page.getByText('To ada@example.com').waitFor();
      await expect.poll(() => page.getByLabel('Subject').inputValue()).toBe('Re: Feedback');
      await page
        .getByRole('textbox', { name: 'Message', exact: true })
        .fill('Thank you, Ada: we will write again soon.');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await page.getByText('Reply sent to ada@example.com.').waitFor();
      const [mail] = await smtp.waitFor((mails) => mails.some((m) => m.rcptTo.includes('ada@example.com')));
      const reply = smtp.received.find((m) => m.rcptTo.includes('ada@example.com')) ?? mail;
      expect(reply?.subject).toBe('Re: Feedback');
      expect(reply?.text).toContain('Thank you, Ada: we will write again soon.');

      await screenshot(page, 'dashboard-inbox-1280-light');
      await expectNoAxeViolations(page);

      // the download holds exactly what the inbox shows for the filter: starred, then everything
      const starredCsv = await download(page);
      expect(starredCsv[0]?.slice(0, 5)).toEqual(['id', 'createdAt', 'status', 'read', 'starred']);
      expect(starredCsv.slice(1).map((row) => row[0])).toEqual([ada.id]);
      expect(await rows.count()).toBe(starredCsv.length - 1);
      await page.getByLabel('Starred only').uncheck();
      await expect.poll(() => rows.count()).toBe(3);
      const allCsv = await download(page);
      // headed by the questions' labels (issue 25), the notes last
      const nameColumn = allCsv[0]?.indexOf('Your name') ?? -1;
      expect(nameColumn).toBeGreaterThan(4);
      expect(allCsv[0]?.at(-1)).toBe('notes');
      expect(allCsv.slice(1).map((row) => row[nameColumn])).toEqual(['Ada Lovelace', 'Person 2', 'Person 1']);
      expect(allCsv.slice(1).map((row) => row[0])).toEqual((await stored()).map((row) => row.id));
      // the same in the other formats, picked beside the link (issue 23 item 6)
      await page.getByLabel('Export as').selectOption({ label: 'Excel' });
      const [xlsxFile] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Export Excel' }).click(),
      ]);
      expect(xlsxFile.suggestedFilename()).toMatch(/\.xlsx$/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile((await xlsxFile.path()) as string);
      const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
      expect(sheet.getRow(1).getCell(nameColumn + 1).value).toBe('Your name');
      const xlsxIds = [2, 3, 4].map((row) => sheet.getRow(row).getCell(1).value);
      expect(xlsxIds).toEqual(allCsv.slice(1).map((row) => row[0]));
      await page.getByLabel('Export as').selectOption({ label: 'NDJSON' });
      const [ndjsonFile] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Export NDJSON' }).click(),
      ]);
      const lines = (await fs.readFile((await ndjsonFile.path()) as string, 'utf8')).trimEnd().split('\n');
      expect(lines.map((line) => JSON.parse(line).id)).toEqual(xlsxIds);
      await expectNoAxeViolations(page);

      await rows.first().getByRole('button').click();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('button', { name: 'Delete response' }).click();
      await expect.poll(() => rows.count()).toBe(2);
      expect((await stored()).map((row) => row.id)).not.toContain(ada.id);
      const gone = await server.request({
        method: 'GET',
        url: `/responses/${ada.id}?form_id=${formId}&environment=development`,
        auth: token,
      });
      expect(gone.status).toBe(404);
      // back on the forms list (no page load), the counts are what the inbox left: 2, both unread
      await page.getByRole('link', { name: 'Forms', exact: true }).click();
      await expect.poll(() => card.textContent()).toContain('2 responses');
      await expect.poll(() => card.textContent()).toContain('2 unread');
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('moves with j and k, stars with s, marks with u, and notes and replies from the keyboard alone', async () => {
    const view = await openPage(browser, `${server.url}/app/login`, { colorScheme: 'dark' });
    const { page } = view;
    try {
      const { formId, stored } = await withResponses(page, 3);
      await send(formId, { name: 'Grace', message: 'Keys only', email: 'grace@example.com' });
      // from the forms list to the inbox by Tab and Enter
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
      await tabTo(page, (element) => element.getAttribute('aria-label') === 'Inbox: Feedback');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Inbox: Feedback' }).waitFor();
      const rows = page.locator('.inbox__row');
      await expect.poll(() => rows.count()).toBe(4);
      const pressed = () => page.locator('.inbox__open[aria-current="true"]').textContent();

      await page.keyboard.press('j');
      await expect.poll(pressed).toContain('Your name: Grace');
      // the open response's heading has focus: a screen reader is taken to it
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('detail-title');
      await page.keyboard.press('j');
      await expect.poll(pressed).toContain('Your name: Person 3');
      await page.keyboard.press('k');
      await expect.poll(pressed).toContain('Your name: Grace');
      await expect.poll(async () => (await stored())[0]?.read).toBe(true);
      await page.keyboard.press('s');
      await expect.poll(async () => (await stored())[0]?.starred).toBe(true);
      await page.keyboard.press('u');
      await expect.poll(async () => (await stored())[0]?.read).toBe(false);
      await page.keyboard.press('u');
      await expect.poll(async () => (await stored())[0]?.read).toBe(true);
      // opening is reading: Grace and Person 3 were opened, the others not
      expect((await stored()).map((row) => row.read)).toEqual([true, true, false, false]);

      // from the open response's heading on, by Tab: a key typed into the note is a letter, not a move
      const note = page.getByRole('textbox', { name: 'Note' });
      await tabTo(page, (element) => element.id === 'note-text');
      await page.keyboard.type('just some notes');
      await expect.poll(() => note.inputValue()).toBe('just some notes');
      await expect.poll(pressed).toContain('Your name: Grace');
      // the j, s and u typed moved nothing, starred nothing, marked nothing
      expect((await stored()).map((row) => [row.read, row.starred])).toEqual([
        [true, true],
        [true, false],
        [false, false],
        [false, false],
      ]);
      await page.keyboard.press('Tab');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Add note');
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => (await stored())[0]?.notes.map((n) => n.text))
        .toEqual(['just some notes']);
      // the button, disabled while the note was sent, has the focus back (not the page's body)
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Add note');

      await tabTo(page, (element) => element.id === 'reply-message');
      await page.keyboard.type('Typed without a mouse');
      await page.keyboard.press('Tab');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Send reply');
      await page.keyboard.press('Enter');
      await page.getByText('Reply sent to grace@example.com.').waitFor();
      const mails = await smtp.waitFor((all) => all.some((m) => m.rcptTo.includes('grace@example.com')));
      expect(mails.find((m) => m.rcptTo.includes('grace@example.com'))?.text).toContain(
        'Typed without a mouse',
      );

      // the shortcuts are written down on the page
      await tabTo(page, (element) => element.textContent === 'Keyboard shortcuts');
      await page.keyboard.press('Enter');
      await page.getByText('Open the next response').waitFor();
      // and can be turned off (remembered): then j is only a letter
      await page.keyboard.press('Tab');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('inbox-keys-on');
      await page.keyboard.press('Space');
      await expect.poll(() => page.getByLabel('Use these keys').isChecked()).toBe(false);
      await page.keyboard.press('j');
      await page.keyboard.press('s');
      await expect.poll(pressed).toContain('Your name: Grace');
      expect((await stored()).map((row) => row.starred)).toEqual([true, false, false, false]);
      await screenshot(page, 'dashboard-inbox-1280-dark');
      await expectNoAxeViolations(page);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it.each([
    [1280, 'light'],
    [320, 'dark'],
  ] as const)('says which language a response was given in (%i px, %s)', async (width, colorScheme) => {
    const view = await openPage(browser, `${server.url}/app/login`, { width, colorScheme });
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'inbox');
      const formId = await createLiveForm(server, token, {
        ui: { layout: 'classic' },
        fields: [{ id: 'name', type: 'text', label: 'Your name' }],
        translations: { de: { title: 'Rückmeldung', fields: { name: { label: 'Ihr Name' } } } },
      });
      const sent = await server.request({
        method: 'POST',
        url: `/forms/${formId}/submit?lang=de`,
        body: { answers: { name: 'Grete' } },
      });
      expect(sent.status).toBe(201);
      await page.goto(`${server.url}/app/forms/${formId}/inbox`);
      await page.locator('.inbox__row').first().getByRole('button').click();
      await page.getByText('· in German').waitFor();
      expect(await scrollsHorizontally(page)).toBe(false);
      await expectNoAxeViolations(page);
      await screenshot(page, `dashboard-inbox-response-language-${width}-${colorScheme}`);
    } finally {
      await view.close();
    }
  });

  it('filters by date, loads more on the cursor, and fits 320 CSS pixels in the dark', async () => {
    const view = await openPage(browser, `${server.url}/app/login`, { width: 320, colorScheme: 'dark' });
    const { page } = view;
    try {
      const { formId } = await withResponses(page, 52);
      await page.goto(`${server.url}/app/forms/${formId}/inbox`);
      await page.getByRole('heading', { level: 1, name: 'Inbox: Feedback' }).waitFor();
      const rows = page.locator('.inbox__row');
      await expect.poll(() => rows.count()).toBe(50);
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => rows.count()).toBe(52);
      await expect.poll(() => page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      await expect.poll(() => rows.last().textContent()).toContain('Person 1 ');
      // on a narrow screen the open response follows the list: its heading takes focus, so it is in view
      await rows.nth(1).getByRole('button').click();
      const heading = page.getByRole('heading', { level: 2, name: /^Response of / });
      await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);
      await expect.poll(() => heading.isVisible()).toBe(true);
      expect(await heading.evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThanOrEqual(
        0,
      );
      await screenshot(page, 'dashboard-inbox-320-dark', { fullPage: false });
      expect(await scrollsHorizontally(page)).toBe(false);
      await expectNoAxeViolations(page);

      // the server's days are UTC days (a date-only `to` covers that whole day)
      const today = new Date().toISOString().slice(0, 10);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      // on a phone the filters start folded (issue 25: the first response above the fold)
      await page.locator('summary', { hasText: 'Filters' }).click();
      await page.getByLabel('From').fill(tomorrow);
      await page.getByText('No responses here yet').waitFor();
      await page.getByLabel('To').fill(today);
      await page.getByText('“To” is before “From”.').waitFor();
      expect(await page.getByRole('link', { name: 'Export CSV' }).count()).toBe(0);
      await page.getByLabel('From').fill(today);
      await expect.poll(() => rows.count()).toBe(50);
      const href = (await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')) ?? '';
      expect(new URL(href, server.url).searchParams.get('from')).toBe(today);
      expect(new URL(href, server.url).searchParams.get('to')).toBe(today);
      expect(await scrollsHorizontally(page)).toBe(false);
      await expectNoAxeViolations(page);
      // up to yesterday: none of today's
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel('From').fill('');
      await page.getByLabel('To').fill(yesterday);
      await page.getByText('No responses here yet').waitFor();
      await page.getByLabel('To').fill('');
      await expect.poll(() => rows.count()).toBe(50);
      await page.getByText('50 responses listed, more to load.').waitFor();

      // a star shows at once, before the server answers; a refusal puts it back and says so
      let answer: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        answer = resolve;
      });
      await page.route('**/responses/*/star', async (route) => {
        await held;
        await route.fulfill({
          status: 503,
          contentType: 'application/problem+json',
          headers: { 'retry-after': '1' },
          body: JSON.stringify({
            type: 'about:blank',
            title: 'Unavailable',
            status: 503,
            detail: 'Intake is busy.',
          }),
        });
      });
      await rows.first().getByRole('button').click();
      await page.getByRole('button', { name: 'Star', exact: true }).click();
      await page.getByRole('button', { name: 'Unstar' }).waitFor();
      await expect.poll(() => rows.first().textContent()).toContain('Starred');
      answer();
      await page.getByRole('alert').filter({ hasText: 'Intake is busy.' }).waitFor();
      await page.getByRole('button', { name: 'Star', exact: true }).waitFor();
      await expect.poll(() => rows.first().textContent()).not.toContain('Starred');
      await page.unroute('**/responses/*/star');

      // a response that arrives is announced, and shown when asked for, first
      await send(formId, { name: 'Late comer', message: 'Just now' });
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await page.getByRole('button', { name: 'Show new responses' }).click();
      await expect.poll(() => rows.first().textContent()).toContain('Your name: Late comer');
      await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

      // read or not: two were opened (and so read), the rest are not
      await page.getByLabel('Read', { exact: true }).selectOption('true');
      await expect.poll(() => rows.count()).toBe(2);
      await page.getByLabel('Read', { exact: true }).selectOption('false');
      await expect.poll(() => rows.count()).toBe(50);
      await expect.poll(() => page.locator('.inbox__row--unread').count()).toBe(50);
      expect(view.problems.filter((problem) => !noise(problem) && !/503/.test(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('opened from a link, reads the form and its responses once each, those of a form of another environment too', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'linked');
      const made = await server.request({
        method: 'POST',
        url: '/environments',
        auth: token,
        body: { name: 'staging' },
      });
      expect(made.status).toBe(201);
      const fields = [{ id: 'name', type: 'text', label: 'Your name' }];
      const development = await createLiveForm(server, token, { fields });
      const staged = await server.request({
        method: 'POST',
        url: '/forms',
        auth: token,
        body: { title: 'Staged', environment: 'staging', status: 'live', fields },
      });
      expect(staged.status).toBe(201);
      const staging = staged.body.id as string;
      await send(development, { name: 'Here in development' });
      await send(staging, { name: 'Over in staging' });
      const reads: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/forms/') || url.pathname === '/responses')
          reads.push(url.pathname + url.search);
      });
      const rows = page.locator('.inbox__row');
      // The form's answer held back, so that the responses come first: what the page ever shows
      // meanwhile is noted (a refusal, a row labelled with a field's id rather than its label).
      // and the reads asked for before it was answered (both go out together)
      const readsBeforeTheForm: string[][] = [];
      await page.route('**/forms/frm_*', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        readsBeforeTheForm.push([...reads]);
        await route.continue();
      });
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        new MutationObserver(() => {
          for (const element of Array.from(document.querySelectorAll('[role=alert], .inbox__row')))
            seen.push(element.textContent ?? '');
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);

      // the dashboard is in development: the inbox's two reads go out together, each once
      await page.goto(`${server.url}/app/forms/${development}/inbox`);
      await page.getByRole('heading', { level: 1, name: 'Inbox: Feedback' }).waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain('Your name: Here in development');
      expect(reads).toEqual([
        `/forms/${development}`,
        `/responses?form_id=${development}&environment=development&limit=50`,
      ]);
      expect(readsBeforeTheForm).toEqual([reads]);
      // each row as it was first shown: labelled as the form says, not by the field's id
      expect((await seen()).filter((text) => !text.includes('Your name: Here in development'))).toEqual([]);

      // a link to a form of staging, followed while the dashboard is in development: its own
      // responses, and nothing of the read that guessed the dashboard's environment
      reads.length = 0;
      await page.goto(`${server.url}/app/forms/${staging}/inbox`);
      await page.getByRole('heading', { level: 1, name: 'Inbox: Staged' }).waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain('Your name: Over in staging');
      // never shown, not even while the form was on its way
      expect(await seen()).toEqual(expect.arrayContaining([expect.stringContaining('Over in staging')]));
      expect((await seen()).filter((text) => !text.includes('Over in staging'))).toEqual([]);
      expect(reads.filter((read) => read.startsWith('/forms/'))).toEqual([`/forms/${staging}`]);
      expect(reads.filter((read) => read.includes('environment=staging'))).toEqual([
        `/responses?form_id=${staging}&environment=staging&limit=50`,
      ]);
      // the guess, refused as the API refuses a form asked for in another environment
      const guessed = `/responses?form_id=${staging}&environment=development`;
      expect(
        reads.filter((read) => read.startsWith('/responses') && !read.includes('environment=staging')),
      ).toEqual([`${guessed}&limit=50`]);
      expect(view.problems.filter((problem) => !noise(problem) && !problem.includes(guessed))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('shows why the form could not be read, and none of its responses, when its list was read all the same', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { formId } = await withResponses(page, 2);
      const rows = page.locator('.inbox__row');
      // the form's read refused as a service short of its database answers (API.md §1), the list's answered
      let refused = 0;
      await page.route(`**/forms/${formId}`, async (route) => {
        refused++;
        await route.fulfill({
          status: 503,
          headers: { 'content-type': 'application/problem+json', 'retry-after': '5' },
          body: JSON.stringify({
            type: 'about:blank',
            title: 'Service Unavailable',
            status: 503,
            code: 'service_unavailable',
            detail: 'The database is not answering; retry later',
          }),
        });
      });
      const listed = page.waitForResponse((response) => new URL(response.url()).pathname === '/responses');
      await page.goto(`${server.url}/app/forms/${formId}/inbox`);
      expect((await listed).status()).toBe(200);
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'retry later' }).count()).toBe(1);
      expect(refused).toBe(1);
      // the rows are labelled by the form's fields: without the form, none is shown
      expect(await rows.count()).toBe(0);
      await expectNoAxeViolations(page);

      // the form answered again: a reload shows its responses and no refusal
      await page.unroute(`**/forms/${formId}`);
      await page.reload();
      await expect.poll(() => rows.count()).toBe(2);
      expect(await page.getByRole('alert').filter({ hasText: 'retry later' }).count()).toBe(0);
      expect(view.problems.filter((problem) => !noise(problem) && !problem.includes('503'))).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
