import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sizeInWords } from '../../src/shared/messages.js';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  scrollsHorizontally,
  startWebServer,
  type WebServer,
} from '../support/browser.js';
import { dashboardNoise, signUpInPage } from '../support/dashboard.js';
import { multipart, PDF } from '../support/multipart.js';

/**
 * The builder's file field (API.md §12, §11.3), used as a person uses it, with the keyboard
 * alone: "File upload" picked in the Add field palette, then its rules on its card: files per
 * answer, the largest file in megabytes, the accepted types ticked from presets and typed by
 * hand; only the members a file field takes are offered, and "More options" says what each way
 * of keeping personal data means for a file. Saved, then read back through the API; a logic
 * condition on the field offers only "has no file" and "has a file", and no spam rule reads it;
 * axe in light and dark at 1280 and 320 CSS pixels.
 *
 * The inbox's side, against the real server: a response whose files were sent through the API
 * (`POST /forms/{id}/uploads`, then a JSON submit) lists each file by name, type and size, with
 * a Download link that gives back the same bytes (the owner's route, the session cookie), a
 * thumbnail of a small PNG that loads, and "Only a checksum was kept" for a hashed file.
 */

const MB = 1024 * 1024;
const noise = dashboardNoise();
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the builder’s file field in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const field = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Field ${n}:`) });
  /** What has focus: its tag and its accessible name as a test reads it (aria-label, else its label's words, else its text). */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const document = (globalThis as any).document;
      const element = document.activeElement;
      const label = element.labels?.[0]?.textContent;
      return `${element.tagName.toLowerCase()}:${element.getAttribute('aria-label') || label || element.textContent.trim()}`;
    });
  async function tabTo(page: Page, target: string, key = 'Tab') {
    const seen: string[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press(key);
      seen.push(await focused(page));
      if (seen.at(-1) === target) return;
    }
    throw new Error(`${key} never reached ${target}: ${seen.join(', ')}`);
  }
  const chosenText = (select: ReturnType<Page['getByLabel']>) =>
    select.evaluate((element: any) => element.selectedOptions[0].text as string);

  /** A new form, then "Add field" → "File upload" with the keyboard, labelled `label`. */
  async function newFormWithFileField(page: Page, label: string) {
    await page.getByRole('button', { name: 'New form' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
    await page.locator('#add-field').focus();
    await page.keyboard.press('Enter');
    const palette = page.getByRole('dialog', { name: 'Add a field' });
    await palette.waitFor();
    expect(await palette.getByRole('button', { name: 'File upload' }).getAttribute('aria-describedby')).toBe(
      'palette-file-about',
    );
    for (let i = 0; i < 14 && (await focused(page)) !== 'button:File upload'; i++)
      await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('button:File upload');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page)).toBe('input:Label');
    await page.keyboard.type(label);
  }

  it('sets a file field’s rules with the keyboard alone, offers only what a file takes, and saves them', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'files');
      await newFormWithFileField(page, 'Your CV');
      const card = field(page, 1);
      expect(await chosenText(card.getByLabel('Type', { exact: true }))).toBe('File upload');

      // files per answer: one at first, then up to three with the arrows
      const count = card.getByLabel('Files per answer');
      expect(await chosenText(count)).toBe('One file');
      await tabTo(page, 'select:Files per answer');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => chosenText(count)).toBe('Up to 3 files');

      // the largest file in megabytes: blank is 10 MB; what is no size is said beside the box
      await tabTo(page, 'input:Largest file (MB)');
      await page.keyboard.type('0');
      await card.getByText('Type a size above 0 MB').waitFor();
      expect(await card.getByLabel('Largest file (MB)').getAttribute('aria-invalid')).toBe('true');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('2.5');
      await card.getByText('Type a size above 0 MB').waitFor({ state: 'detached' });

      // accepted types: PDF and Images ticked with the space bar; Documents holds PDF whole
      await tabTo(page, 'input:PDF');
      await page.keyboard.press('Space');
      await tabTo(page, 'input:Images');
      await page.keyboard.press('Space');
      const documents = card.getByRole('checkbox', { name: 'Documents (PDF, Word, text)' });
      await tabTo(page, 'input:Documents (PDF, Word, text)');
      await page.keyboard.press('Space');
      const pdf = card.getByRole('checkbox', { name: 'PDF', exact: true });
      await expect.poll(() => pdf.isDisabled()).toBe(true);
      expect(await pdf.isChecked()).toBe(true);
      expect(await card.getByText('(in Documents)').count()).toBe(1);
      // Documents unticked: PDF goes with it (it was within it)
      await page.keyboard.press('Space');
      await expect.poll(() => documents.isChecked()).toBe(false);
      expect(await pdf.isChecked()).toBe(false);
      await tabTo(page, 'input:PDF', 'Shift+Tab');
      await page.keyboard.press('Space');

      // other types typed by hand: a bare word is an extension; what is no type is named
      await tabTo(page, 'input:Other types');
      await page.keyboard.type('heic, image/');
      await card.getByText('“image/” is neither an extension like .heic nor a type like image/png').waitFor();
      for (let i = 0; i < 'image/'.length; i++) await page.keyboard.press('Backspace');
      await page.keyboard.type('application/zip');
      await card.locator('.error').waitFor({ state: 'detached' });

      // nothing a file field does not take: no placeholder, no lengths or pattern, no options
      await card.locator('summary').focus();
      await page.keyboard.press('Enter');
      await card.getByLabel('Field id').waitFor();
      for (const absent of ['Placeholder', 'Fewest characters', 'Most characters', 'Pattern', 'Smallest'])
        expect(await card.getByLabel(absent).count(), absent).toBe(0);
      expect(await card.getByRole('button', { name: 'Add option' }).count()).toBe(0);
      // what each way of keeping personal data means for a file, tied to the choice
      const pii = card.getByLabel('Personal data');
      expect(await pii.getAttribute('aria-describedby')).toContain('-pii-hint');
      await card.getByText(/For a file: masked keeps the file but hides its name/).waitFor();
      await pii.focus();
      for (let i = 0; i < 6 && (await chosenText(pii)) !== 'Personal: encrypted'; i++)
        await page.keyboard.press('ArrowDown');
      expect(await chosenText(pii)).toBe('Personal: encrypted');

      await card.evaluate((element: any) => {
        element.scrollIntoView({ block: 'start' });
        // below the sticky Save bar
        (globalThis as any).scrollBy(0, -110);
      });
      await screenshot(page, 'builder-file-field-1280-light', { fullPage: false });
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Save', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Saved.').waitFor();
      const formId = new URL(page.url()).pathname.split('/').pop() ?? '';
      const stored = (await server.request({ method: 'GET', url: `/forms/${formId}`, auth: token })).body;
      expect(stored.fields).toEqual([
        {
          id: 'your_cv',
          type: 'file',
          label: 'Your CV',
          maxFiles: 3,
          maxFileSize: 2.5 * MB,
          accept: ['image/*', '.pdf', 'application/pdf', '.heic', 'application/zip'],
          pii: true,
          piiMode: 'encrypted',
        },
      ]);

      // read again from the server: the card shows what was stored
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
      expect(await chosenText(field(page, 1).getByLabel('Files per answer'))).toBe('Up to 3 files');
      expect(await field(page, 1).getByLabel('Largest file (MB)').inputValue()).toBe('2.5');
      expect(await field(page, 1).getByLabel('Other types').inputValue()).toBe('.heic, application/zip');
      expect(await field(page, 1).getByRole('checkbox', { name: 'Images' }).isChecked()).toBe(true);

      // a condition on a file field: there or not, nothing to type
      await page.getByRole('button', { name: 'Add rule' }).click();
      const condition = page.getByRole('group', { name: 'Condition 1 of rule 1' });
      const test = condition.getByLabel('Test', { exact: true });
      expect(
        await test.evaluate((select: any) => [...select.options].map((option: any) => option.text)),
      ).toEqual(['has no file', 'has a file']);
      expect(await condition.getByRole('textbox').count()).toBe(0);
      // a spam rule reads an answer as text: a form of files alone has none to add
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByRole('tabpanel', { name: 'Settings' }).getByLabel('CAPTCHA').waitFor();
      expect(await page.getByRole('button', { name: 'Add spam rule' }).count()).toBe(0);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('changing a text field to a file field leaves its text rules behind, so the save is taken', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'files-type');
      await page.getByRole('button', { name: 'New form' }).click();
      await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
      await page.locator('#add-field').click();
      await page
        .getByRole('dialog', { name: 'Add a field' })
        .getByRole('button', { name: 'Short text' })
        .click();
      const card = field(page, 1);
      await card.locator('summary').click();
      await card.getByLabel('Placeholder (example text in the empty box)').fill('A link');
      await card.getByLabel('Most characters').fill('80');
      await card.getByLabel('Type', { exact: true }).selectOption({ label: 'File upload' });
      await card.getByLabel('Files per answer').waitFor();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved.').waitFor();
      const formId = new URL(page.url()).pathname.split('/').pop() ?? '';
      const stored = (await server.request({ method: 'GET', url: `/forms/${formId}`, auth: token })).body;
      expect(stored.fields).toEqual([{ id: 'question_1', type: 'file', label: 'Question 1' }]);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 320]) {
      it(`has no axe violation with a file field open${width === 320 ? ', and fits 320 CSS pixels' : ''} (${colorScheme})`, async () => {
        const view = await openPage(browser, `${server.url}/app/signup`, { colorScheme, width });
        const { page } = view;
        try {
          await signUpInPage(page, server, `files-${width}-${colorScheme}`);
          await newFormWithFileField(page, 'Photos of the damage');
          const card = field(page, 1);
          await card.getByRole('checkbox', { name: 'Documents (PDF, Word, text)' }).check();
          await card.getByLabel('Other types').fill('heic, nope/');
          await card.locator('summary').click();
          await card.evaluate((element: any) => {
            element.scrollIntoView({ block: 'start' });
            (globalThis as any).scrollBy(0, -110);
          });
          await screenshot(page, `builder-file-field-${width}-${colorScheme}`, { fullPage: false });
          expect(await scrollsHorizontally(page)).toBe(false);
          await expectNoAxeViolations(page);
          expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
        } finally {
          await view.close();
        }
      });
    }
  }
  /** `promise`, or a failure naming `what` after `ms` (a wait Playwright puts no time limit on). */
  const inTime = <T>(what: string, promise: Promise<T>, ms = 20_000): Promise<T> =>
    Promise.race([
      promise,
      new Promise<never>((_resolve, reject) =>
        setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms).unref(),
      ),
    ]);

  /** A small picture, as a real PNG: Chromium's screenshot of a gradient, 120 × 90 pixels. */
  async function picture(): Promise<Buffer> {
    const page = await browser.newPage({ viewport: { width: 120, height: 90 } });
    try {
      await page.setContent(
        '<body style="margin:0"><div style="height:90px;background:linear-gradient(135deg,#2b59c3,#f2a541)"></div></body>',
      );
      return await page.screenshot({ type: 'png' });
    } finally {
      await page.close();
    }
  }

  /** `POST /forms/{id}/uploads` as any client sends it: the field, then the file; the upload's id. */
  async function upload(formId: string, field: string, filename: string, content: Buffer): Promise<string> {
    const { body, headers } = multipart([
      { name: 'field', value: field },
      { name: 'file', filename, content, type: 'application/octet-stream' },
    ]);
    const uploaded = await server.request({ method: 'POST', url: `/forms/${formId}/uploads`, body, headers });
    expect(uploaded.status, uploaded.text).toBe(201);
    return uploaded.body.uploadId as string;
  }

  it('lists a response’s files in the inbox: name, type, size, a Download of the same bytes, a thumbnail, a checksum kept alone', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'files-inbox');
      const created = await server.request({
        method: 'POST',
        url: '/forms',
        auth: token,
        body: {
          title: 'Insurance claim',
          environment: 'development',
          status: 'live',
          fields: [
            { id: 'name', type: 'text', label: 'Your name' },
            {
              id: 'evidence',
              type: 'file',
              label: 'Photos and receipts',
              maxFiles: 3,
              accept: ['.pdf', 'image/*'],
            },
            { id: 'id_card', type: 'file', label: 'A copy of your ID', piiMode: 'hashed' },
          ],
        },
      });
      expect(created.status, created.text).toBe(201);
      const formId = created.body.id as string;
      const receipt = Buffer.concat([PDF, Buffer.alloc(5000, 32)]);
      const photo = await picture();
      const card = Buffer.concat([PDF, Buffer.from('the card itself')]);
      const submitted = await server.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        body: {
          answers: {
            name: 'Ada Lovelace',
            evidence: [
              await upload(formId, 'evidence', 'receipt.pdf', receipt),
              await upload(formId, 'evidence', 'dented door.png', photo),
            ],
            id_card: [await upload(formId, 'id_card', 'passport.pdf', card)],
          },
        },
      });
      expect(submitted.status, submitted.text).toBe(201);

      await page.goto(`${server.url}/app/forms/${formId}/inbox`);
      await page.getByRole('heading', { level: 1, name: 'Inbox: Insurance claim' }).waitFor();
      const rows = page.locator('.inbox__row');
      await expect.poll(() => rows.count()).toBe(1);
      // a list row counts the files
      expect(await rows.first().textContent()).toContain('Photos and receipts: 2 files');
      await rows.first().getByRole('button').click();
      await page.getByRole('heading', { level: 2, name: /^Response of / }).waitFor();

      // each file: its name, the type read from its bytes and its size, then Download
      const lines = page.locator('.files__file');
      await expect.poll(() => lines.count()).toBe(3);
      const said = await lines.evaluateAll((items: any[]) =>
        items.map((item) => ({
          name: item.querySelector('.files__name')?.textContent as string,
          facts: item.querySelector('.files__facts')?.textContent as string,
        })),
      );
      expect(said).toEqual([
        { name: 'receipt.pdf', facts: `application/pdf, ${sizeInWords(receipt.length)}` },
        { name: 'dented door.png', facts: `image/png, ${sizeInWords(photo.length)}` },
        { name: 'Only a checksum was kept', facts: `${sizeInWords(card.length)}, SHA-256 ${sha256(card)}` },
      ]);
      // a checksum alone: nothing to download
      expect(await lines.nth(2).getByRole('link').count()).toBe(0);
      expect(await page.getByRole('link', { name: /^Download/ }).count()).toBe(2);

      // Download: the browser's download of the owner's route, the same bytes
      const pdfLink = page.getByRole('link', { name: 'Download receipt.pdf' });
      const [download] = await Promise.all([page.waitForEvent('download'), pdfLink.click()]);
      expect(download.suggestedFilename()).toBe('receipt.pdf');
      expect(sha256(await fs.readFile((await inTime('the download', download.path())) as string))).toBe(
        sha256(receipt),
      );
      // and the picture's, fetched in the page with the session cookie
      const pngLink = page.getByRole('link', { name: 'Download dented door.png' });
      const href = (await pngLink.getAttribute('href')) as string;
      expect(href).toMatch(/^\/responses\/[^/]+\/files\/fil_/);
      const fetched = await inTime(
        'the fetch of the file',
        page.evaluate(async (href) => {
          const answer = await fetch(href);
          const digest = await crypto.subtle.digest('SHA-256', await answer.arrayBuffer());
          return {
            status: answer.status,
            type: answer.headers.get('content-type'),
            disposition: answer.headers.get('content-disposition'),
            sha256: [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join(''),
          };
        }, href),
      );
      expect(fetched).toEqual({
        status: 200,
        type: 'image/png',
        disposition: expect.stringMatching(/^attachment; filename="dented door.png"/),
        sha256: sha256(photo),
      });

      // the PNG's thumbnail is drawn (from the same route); the PDF has its kind in its place
      const thumbnail = lines.nth(1).locator('img.files__thumb');
      await thumbnail.scrollIntoViewIfNeeded();
      await expect
        .poll(() => thumbnail.evaluate((image: any) => (image.complete ? image.naturalWidth : 0)))
        .toBe(120);
      expect(await thumbnail.getAttribute('src')).toBe(href);
      expect(await lines.nth(0).locator('.files__badge').textContent()).toBe('PDF');

      // the README's picture: the whole response, from the top of the page
      await page.setViewportSize({ width: 1280, height: 1000 });
      await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
      await screenshot(page, 'inbox-files', { fullPage: false });
      await inTime('axe', expectNoAxeViolations(page));
      // no request failed: the thumbnail's included
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
