import type { Browser, Page, Route } from 'playwright-core';
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
import { dashboardNoise, signUpInPage } from '../support/dashboard.js';
import { createForm, signup } from '../support/factories.js';

/**
 * A file field on the hosted page (API.md §12), the respondent's side: the native file input with
 * its limits in words, without JavaScript and with it, axe-clean in light and dark, at 320 CSS
 * pixels, reached with the keyboard; with the page's script, chosen files checked against the
 * limits in the validator's words before a byte is sent, then uploaded one by one
 * (`POST /forms/{id}/uploads`, answered here by a stand-in route: the page's side of the
 * contract, whatever the server does), each a row with its progress and a Remove button, the
 * upload's id posted with the page as multipart/form-data, and a post waiting for an upload on
 * its way.
 */

const MiB = 1024 * 1024;

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  {
    id: 'cv',
    type: 'file',
    label: 'Your CV',
    required: true,
    help: 'The latest one, please',
    maxFiles: 2,
    maxFileSize: MiB,
    accept: ['.pdf', 'image/*'],
  },
  { id: 'photo', type: 'file', label: 'A photo', accept: ['image/*'] },
];

/** A file to choose: a name, a media type, its bytes. */
const file = (name: string, mimeType: string, size: number) => ({
  name,
  mimeType,
  buffer: Buffer.alloc(size, 1),
});

describe('a file field on the hosted page, in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  const forms: Record<'classic' | 'steps', string> = { classic: '', steps: '' };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer({ rateLimitPublic: 1_000_000 }), launchBrowser()]);
    const user = await signup(server);
    for (const layout of ['classic', 'steps'] as const)
      forms[layout] = (
        await createForm(server, user.token, {
          title: 'Apply for the job',
          status: 'live',
          fields: layout === 'classic' ? FIELDS : [FIELDS[1], FIELDS[0]],
          ui: { layout: layout === 'classic' ? 'classic' : 'one-by-one', submitLabel: 'Apply' },
        })
      ).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** What reached `POST /forms/{id}/uploads`, each request's parts in order; `answer` says what each gets. */
  async function standIn(page: Page, answer: (route: Route, index: number) => Promise<void>) {
    const uploads: Array<{ parts: string[]; contentType: string }> = [];
    await page.route('**/forms/*/uploads', async (route) => {
      const request = route.request();
      const body = request.postDataBuffer()?.toString('latin1') ?? '';
      const parts = [
        ...body.matchAll(/content-disposition: form-data; name="([^"]+)"(?:; filename="([^"]*)")?/gi),
      ].map((match) => (match[2] === undefined ? `${match[1]}` : `${match[1]}:${match[2]}`));
      uploads.push({ parts, contentType: request.headers()['content-type'] ?? '' });
      await answer(route, uploads.length - 1);
    });
    return uploads;
  }

  const accepted = (route: Route, index: number, name: string) =>
    route.fulfill({
      status: 201,
      contentType: 'application/json',
      body: JSON.stringify({
        uploadId: `upl_test${index}`,
        name,
        type: 'application/pdf',
        size: 10,
        sha256: 'a'.repeat(64),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      }),
    });

  /** What the page told the field's status line, and the message under its label. */
  const told = (page: Page, id: string) =>
    page.evaluate((id) => {
      const document = (globalThis as any).document;
      return {
        status: document.getElementById(`status-${id}`)?.textContent as string,
        error: document.getElementById(`error-${id}`)?.textContent as string | undefined,
      };
    }, id);

  /** The problems of a page, but for the refusals a test asks its stand-in for. */
  const unexpected = (view: View) =>
    view.problems.filter(
      (problem) => !(problem.includes('/uploads') && /\b(400|413|429|503)\b/.test(problem)),
    );

  it.each(['light', 'dark'] as const)(
    'renders without JavaScript and with it: a native input named by its label, its limits in words; axe-clean, 320 px wide (%s)',
    async (colorScheme) => {
      // axe-core runs in the page: with the script on (the markup is the same, the script adds nothing to it here)
      for (const [width, javaScriptEnabled] of [
        [1280, false],
        [320, false],
        [1280, true],
        [320, true],
      ] as const) {
        const view = await openPage(browser, `${server.url}/f/${forms.classic}`, {
          colorScheme,
          width,
          javaScriptEnabled,
        });
        const { page } = view;
        try {
          const input = page.getByLabel('Your CV');
          expect(await input.getAttribute('type')).toBe('file');
          expect(await input.getAttribute('name')).toBe('cv');
          expect(await input.getAttribute('accept')).toBe('.pdf,image/*');
          expect(await input.getAttribute('multiple')).not.toBeNull();
          expect(await page.getByLabel('A photo').getAttribute('multiple')).toBeNull();
          expect(await page.locator('form[data-form]').getAttribute('enctype')).toBe('multipart/form-data');
          expect(await page.locator('#limits-cv').textContent()).toBe(
            'Up to 2 files, 1 MB each; PDF or images',
          );
          expect(await page.locator('#limits-photo').textContent()).toBe('One file, up to 10 MB; images');
          // described by its help and its limits
          expect(await input.getAttribute('aria-describedby')).toBe('help-cv limits-cv');
          expect(await scrollsHorizontally(page)).toBe(false);
          if (javaScriptEnabled) await expectNoAxeViolations(page);
          else await screenshot(page, `hosted-files-${width}-${colorScheme}`);
          expect(view.problems).toEqual([]);
        } finally {
          await view.close();
        }
      }
    },
  );

  it('renders a one-by-one question page for a file field as multipart, axe-clean (light and dark)', async () => {
    const view = await openPage(browser, `${server.url}/f/${forms.steps}`);
    try {
      expect(await view.page.locator('form[data-form]').getAttribute('enctype')).toBe('multipart/form-data');
      expect(await view.page.getByRole('heading', { level: 2 }).textContent()).toContain('Your CV');
      await expectNoAxeViolations(view.page);
      await view.page.emulateMedia({ colorScheme: 'dark' });
      await expectNoAxeViolations(view.page);
    } finally {
      await view.close();
    }
  });

  it('is reached with the keyboard: Tab from the name to the file input, to the next one, to the button', async () => {
    const view = await openPage(browser, `${server.url}/f/${forms.classic}`, { javaScriptEnabled: false });
    const { page } = view;
    try {
      await page.getByLabel('Your name').focus();
      const order: string[] = [];
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('Tab');
        order.push(
          await page.evaluate(() => {
            const element = (globalThis as any).document.activeElement;
            return `${element.tagName.toLowerCase()}:${element.getAttribute('name') ?? element.textContent}`;
          }),
        );
      }
      expect(order).toEqual(['input:cv', 'input:photo', 'button:Apply']);
      await page.getByLabel('Your CV').focus();
      await screenshot(page, 'hosted-files-focus');
      // the focus ring is drawn (an outline of the accent colour)
      const outline = await page
        .getByLabel('Your CV')
        .evaluate((element: any) => getComputedStyle(element).outlineStyle);
      expect(outline).toBe('solid');
    } finally {
      await view.close();
    }
  });

  it.each(['light', 'dark'] as const)(
    'with JavaScript, checks chosen files in the validator’s words and sends nothing that fails (%s)',
    async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/f/${forms.classic}`, { colorScheme });
      const { page } = view;
      const uploads = await standIn(page, (route) => route.abort());
      try {
        const input = page.getByLabel('Your CV');
        const cases: Array<[ReturnType<typeof file>[], string]> = [
          [
            [file('big.pdf', 'application/pdf', MiB + 1)],
            '“big.pdf” is larger than 1 MB: choose a smaller file',
          ],
          [
            [file('notes.txt', 'text/plain', 10)],
            '“notes.txt” is not a file of an accepted type (PDF or images)',
          ],
          [
            [file('blank.pdf', 'application/pdf', 0)],
            '“blank.pdf” is empty: choose a file with something in it',
          ],
          [
            [
              file('a.pdf', 'application/pdf', 10),
              file('b.pdf', 'application/pdf', 10),
              file('c.png', 'image/png', 10),
            ],
            'Choose no more than 2 files',
          ],
        ];
        for (const [files, message] of cases) {
          await input.setInputFiles(files);
          await expect.poll(() => told(page, 'cv')).toEqual({ status: message, error: `Error: ${message}.` });
          // the selection is emptied: the refused bytes are not posted with the page either
          expect(await input.evaluate((element: any) => element.files.length)).toBe(0);
          expect(await input.getAttribute('aria-invalid')).toBe('true');
          expect(await input.getAttribute('aria-describedby')).toBe('help-cv limits-cv error-cv');
        }
        expect(await page.locator('#uploads-cv li').count()).toBe(0);
        expect(uploads).toEqual([]);
        await screenshot(page, `hosted-files-refused-${colorScheme}`);
        await expectNoAxeViolations(page);
        expect(unexpected(view)).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it('with JavaScript, uploads each file (field first, then file), lists it with a Remove button, and posts its id as multipart', async () => {
    const view = await openPage(browser, `${server.url}/f/${forms.classic}`);
    const { page } = view;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const uploads = await standIn(page, async (route, index) => {
      // the second upload waits until the test lets it go: a post meanwhile waits for it
      if (index === 1) await held;
      await accepted(route, index, index === 0 ? 'cv.pdf' : 'scan.png');
    });
    const posts: Array<{ contentType: string; body: string }> = [];
    await page.route('**/f/*', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      posts.push({
        contentType: route.request().headers()['content-type'] ?? '',
        body: route.request().postDataBuffer()?.toString('latin1') ?? '',
      });
      await route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Sent</title><main class="hosted"><div class="form-card"><h1 class="form-title">Thank you</h1></div></main>',
      });
    });
    try {
      const input = page.getByLabel('Your CV');
      await input.setInputFiles([file('cv.pdf', 'application/pdf', 2000)]);
      const first = page.locator('#uploads-cv li').first();
      await expect.poll(() => first.locator('input[type=hidden]').getAttribute('value')).toBe('upl_test0');
      expect(await first.locator('input[type=hidden]').getAttribute('name')).toBe('cv');
      expect((await first.textContent())?.replace(/\s+/g, ' ')).toContain('cv.pdf (2 KB)');
      expect(await told(page, 'cv')).toEqual({ status: 'cv.pdf uploaded', error: undefined });
      // the bytes went once: the input's selection is emptied, and a held file answers the required field
      expect(await input.evaluate((element: any) => element.files.length)).toBe(0);
      expect(await input.evaluate((element: any) => element.required)).toBe(false);
      expect(uploads[0]?.parts).toEqual(['field', 'file:cv.pdf']);
      expect(uploads[0]?.contentType).toMatch(/^multipart\/form-data; boundary=/);

      // the second, held on its way: a progress bar named for it, and the post waits
      await input.setInputFiles([file('scan.png', 'image/png', 3000)]);
      const progress = page.getByRole('progressbar', { name: 'Uploading scan.png' });
      await progress.waitFor();
      await screenshot(page, 'hosted-files-uploading');
      await expectNoAxeViolations(page);
      await page.getByLabel('Your name').fill('Ada');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect
        .poll(() => told(page, 'cv').then((said) => said.status))
        .toBe('Waiting for the upload to finish before sending');
      expect(posts).toEqual([]);
      release();
      await page.getByRole('heading', { name: 'Thank you' }).waitFor();
      expect(posts).toHaveLength(1);
      expect(posts[0]?.contentType).toMatch(/^multipart\/form-data; boundary=/);
      // the upload ids under the field's name; no file's bytes posted again
      const values = [...(posts[0]?.body ?? '').matchAll(/name="cv"\r\n\r\n([^\r]*)/g)].map(
        (match) => match[1],
      );
      expect(values).toEqual(['upl_test0', 'upl_test1']);
      expect(posts[0]?.body).toMatch(/name="cv"; filename=""/);
      expect(posts[0]?.body).not.toContain('scan.png');
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('with JavaScript, Remove (by keyboard) takes a file off, a one-file field takes a new one in place, a refusal is told at the field', async () => {
    const view = await openPage(browser, `${server.url}/f/${forms.classic}`);
    const { page } = view;
    const uploads = await standIn(page, async (route, index) => {
      if (index === 2)
        return route.fulfill({
          status: 400,
          contentType: 'application/problem+json',
          body: JSON.stringify({
            type: 'about:blank',
            title: 'Validation failed',
            status: 400,
            code: 'validation_failed',
            errors: [
              {
                field: 'photo',
                code: 'file_type',
                message: '“fake.png” is not a file of an accepted type (images)',
              },
            ],
          }),
        });
      if (index === 3)
        return route.fulfill({ status: 503, contentType: 'application/problem+json', body: '{}' });
      await accepted(route, index, `photo${index}.png`);
    });
    try {
      const photo = page.getByLabel('A photo');
      await photo.setInputFiles([file('one.png', 'image/png', 10)]);
      await expect.poll(() => page.locator('#uploads-photo input[type=hidden]').count()).toBe(1);
      // a field of one file: a second choice takes the first one's place
      await photo.setInputFiles([file('two.png', 'image/png', 10)]);
      await expect.poll(() => told(page, 'photo').then((said) => said.status)).toBe('two.png uploaded');
      expect(await page.locator('#uploads-photo .upload__name').allTextContents()).toEqual(['two.png']);

      // Remove, with the keyboard: the row gone, focus back on the input, the change told
      const remove = page.getByRole('button', { name: 'Remove two.png' });
      await remove.focus();
      await screenshot(page, 'hosted-files-remove-focus');
      await page.keyboard.press('Enter');
      expect(await page.locator('#uploads-photo li').count()).toBe(0);
      expect(await told(page, 'photo')).toEqual({ status: 'two.png removed', error: undefined });
      expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('field-photo');

      // the server's refusal, in its words, at the field
      await photo.setInputFiles([file('fake.png', 'image/png', 10)]);
      await expect
        .poll(() => told(page, 'photo').then((said) => said.error))
        .toBe('Error: “fake.png” is not a file of an accepted type (images).');
      expect(await page.locator('#uploads-photo li').count()).toBe(0);
      // a server in trouble: a sentence
      await photo.setInputFiles([file('later.png', 'image/png', 10)]);
      await expect
        .poll(() => told(page, 'photo').then((said) => said.status))
        .toBe('Files cannot be received just now: wait a minute, then choose the file again');
      // a required field: a file held answers it; the last one removed, the input is required again
      const cv = page.getByLabel('Your CV');
      await cv.setInputFiles([file('cv.pdf', 'application/pdf', 10)]);
      await expect.poll(() => cv.evaluate((element: any) => element.required)).toBe(false);
      await page.getByRole('button', { name: 'Remove cv.pdf' }).click();
      expect(await cv.evaluate((element: any) => element.required)).toBe(true);
      expect(uploads.map((upload) => upload.parts)).toEqual([
        ['field', 'file:one.png'],
        ['field', 'file:two.png'],
        ['field', 'file:fake.png'],
        ['field', 'file:later.png'],
        ['field', 'file:cv.pdf'],
      ]);
      await expectNoAxeViolations(page);
      expect(unexpected(view)).toEqual([]);
    } finally {
      await view.close();
    }
  });
  it('renders in the builder’s preview, says files are not uploaded there, and steps on without sending them', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/(f\/|forms\/.*\/uploads)/.test(new URL(request.url()).pathname))
        sent.push(request.url());
    });
    try {
      const { token } = await signUpInPage(page, server, 'files-preview');
      const created = await server.request({
        method: 'POST',
        url: '/forms',
        auth: token,
        body: {
          title: 'Apply for the job',
          environment: 'development',
          fields: [FIELDS[1], FIELDS[0]],
          ui: { layout: 'one-by-one', submitLabel: 'Apply' },
        },
      });
      expect(created.status, created.text).toBe(201);
      await page.goto(`${server.url}/app/forms/${created.body.id}`);
      const preview = page.frameLocator('iframe.preview');
      await expect.poll(() => preview.locator('html').getAttribute('class')).toContain('js');
      expect(await preview.locator('#preview-cv').textContent()).toBe(
        'Files are not uploaded in the preview',
      );
      const input = preview.getByLabel('Your CV');
      // checked as on the live page
      await input.setInputFiles([file('big.pdf', 'application/pdf', MiB + 1)]);
      await expect
        .poll(() => preview.locator('#error-cv').textContent())
        .toBe('Error: “big.pdf” is larger than 1 MB: choose a smaller file.');
      // a file that passes stays in the input (nothing uploaded), and the page steps on
      await input.setInputFiles([file('cv.pdf', 'application/pdf', 10)]);
      expect(await input.evaluate((element: any) => element.files.length)).toBe(1);
      await page.locator('iframe.preview').scrollIntoViewIfNeeded();
      await screenshot(page, 'builder-preview-files-question', { fullPage: false });
      await preview.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => preview.locator('.progress').textContent()).toBe('Question 2 of 2');
      await page.locator('iframe.preview').scrollIntoViewIfNeeded();
      await screenshot(page, 'builder-preview-files', { fullPage: false });
      expect(sent).toEqual([]);
      expect(view.problems.filter((problem) => !dashboardNoise()(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
