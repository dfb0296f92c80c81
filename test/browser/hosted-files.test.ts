import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  posting,
  refusedPost,
  screenshot,
  scrollsHorizontally,
  startWebServer,
  type View,
  type WebServer,
} from '../support/browser.js';
import { dashboardNoise, signUpInPage } from '../support/dashboard.js';
import { createForm, signup, type TestUser } from '../support/factories.js';
import { EXE, PDF, PNG } from '../support/multipart.js';

/**
 * A file field on the hosted page (API.md §12), the respondent's side: the native file input with
 * its limits in words, without JavaScript and with it, axe-clean in light and dark, at 320 CSS
 * pixels, reached with the keyboard; with the page's script, chosen files checked against the
 * limits in the validator's words before a byte is sent, then uploaded one by one to the real
 * `POST /forms/{id}/uploads` (a stand-in only for what the server cannot be made to answer: a
 * 503), each a row with its progress and a Remove button, the upload's id posted with the page
 * as multipart/form-data, and a post waiting for an upload on its way; the server's refusal of a
 * type in the page's own words.
 *
 * End to end, against the real server: with the script and the keyboard alone, a PDF chosen,
 * uploaded, listed, sent, and downloaded by the owner from the dashboard's inbox byte for byte;
 * one by one, a file listed again after Back. Without the script, a classic page refused for a
 * missing answer keeps the file (listed, posted again) and then stores it, a file the server
 * refuses (too large, or not of its type by its bytes) is told at its field with the other
 * answers kept, a one-by-one page keeps a file across Next and Back, and the Remove box takes it
 * off the answer.
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

/** A file to choose: a name, a media type, its bytes (`size` bytes of filler, or the bytes given). */
const file = (name: string, mimeType: string, content: number | Buffer) => ({
  name,
  mimeType,
  buffer: typeof content === 'number' ? Buffer.alloc(content, 1) : content,
});

/** A real PDF (its signature is what the server judges) of `size` bytes. */
const pdf = (size: number) => Buffer.concat([PDF, Buffer.alloc(Math.max(0, size - PDF.length), 32)]);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface StoredFileAnswer {
  id: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
  url: string;
}
interface Stored {
  id: string;
  answers: Record<string, unknown>;
}

describe('a file field on the hosted page, in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  let user: TestUser;
  const forms: Record<'classic' | 'steps', string> = { classic: '', steps: '' };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer({ rateLimitPublic: 1_000_000 }), launchBrowser()]);
    user = await signup(server);
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

  /** The responses of a form, newest first, as its owner reads them through the API. */
  const responses = async (formId: string, token = user.token) => {
    const read = await server.request({
      method: 'GET',
      url: `/responses?form_id=${formId}&environment=development`,
      auth: token,
    });
    expect(read.status, read.text).toBe(200);
    return read.body.data as Stored[];
  };

  /** A stored file's bytes through the owner's route (`GET /responses/{id}/files/{fileId}`). */
  const ownersDownload = async (submissionId: string, fileId: string, token = user.token) => {
    const download = await server.app.inject({
      method: 'GET',
      url: `/responses/${submissionId}/files/${fileId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(download.statusCode).toBe(200);
    return download.rawPayload;
  };

  /** What reached `POST /forms/{id}/uploads`, each request's parts in order; `answer` says what each gets (`route.continue()`: the real route). */
  async function standIn(page: Page, answer: (route: Route, index: number) => Promise<void>) {
    const uploads: Array<{ parts: string[]; contentType: string }> = [];
    await page.route('**/forms/*/uploads?*', async (route) => {
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
    const before = (await responses(forms.classic)).length;
    const view = await openPage(browser, `${server.url}/f/${forms.classic}`);
    const { page } = view;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const uploads = await standIn(page, async (route, index) => {
      // the second upload waits until the test lets it go: a post meanwhile waits for it
      if (index === 1) await held;
      await route.continue();
    });
    const posts: Array<{ contentType: string; body: string }> = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/f/'))
        posts.push({
          contentType: request.headers()['content-type'] ?? '',
          body: request.postDataBuffer()?.toString('latin1') ?? '',
        });
    });
    try {
      const input = page.getByLabel('Your CV');
      const cv = pdf(2000);
      await input.setInputFiles([file('cv.pdf', 'application/pdf', cv)]);
      const first = page.locator('#uploads-cv li').first();
      await expect.poll(() => first.locator('input[type=hidden]').getAttribute('value')).toMatch(/^upl_/);
      expect(await first.locator('input[type=hidden]').getAttribute('name')).toBe('cv');
      expect((await first.textContent())?.replace(/\s+/g, ' ')).toContain('cv.pdf (2 kB)');
      expect(await told(page, 'cv')).toEqual({ status: 'cv.pdf uploaded', error: undefined });
      // the bytes went once: the input's selection is emptied, and a held file answers the required field
      expect(await input.evaluate((element: any) => element.files.length)).toBe(0);
      expect(await input.evaluate((element: any) => element.required)).toBe(false);
      expect(uploads[0]?.parts).toEqual(['field', 'file:cv.pdf']);
      expect(uploads[0]?.contentType).toMatch(/^multipart\/form-data; boundary=/);

      // the second, held on its way: a progress bar named for it, and the post waits
      await input.setInputFiles([file('scan.png', 'image/png', PNG)]);
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
      expect(values).toHaveLength(2);
      for (const value of values) expect(value).toMatch(/^upl_/);
      expect(posts[0]?.body).toMatch(/name="cv"; filename=""/);
      expect(posts[0]?.body).not.toContain('scan.png');
      // stored once, with both files as they were chosen
      const stored = await responses(forms.classic);
      expect(stored).toHaveLength(before + 1);
      const files = stored[0]?.answers.cv as StoredFileAnswer[];
      expect(files.map(({ name, type, size, sha256 }) => ({ name, type, size, sha256 }))).toEqual([
        { name: 'cv.pdf', type: 'application/pdf', size: cv.length, sha256: sha256(cv) },
        { name: 'scan.png', type: 'image/png', size: PNG.length, sha256: sha256(PNG) },
      ]);
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('with JavaScript, Remove (by keyboard) takes a file off, a one-file field takes a new one in place, a refusal is told at the field', async () => {
    const view = await openPage(browser, `${server.url}/f/${forms.classic}`);
    const { page } = view;
    const uploads = await standIn(page, async (route, index) => {
      // a server in trouble (no way to make the real one so here): a stand-in's 503
      if (index === 3)
        return route.fulfill({ status: 503, contentType: 'application/problem+json', body: '{}' });
      await route.continue();
    });
    try {
      const photo = page.getByLabel('A photo');
      await photo.setInputFiles([file('one.png', 'image/png', PNG)]);
      await expect.poll(() => page.locator('#uploads-photo input[type=hidden]').count()).toBe(1);
      // a field of one file: a second choice takes the first one's place
      await photo.setInputFiles([file('two.png', 'image/png', PNG)]);
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

      // the server's refusal of what the browser let through (a program named .png: judged by its
      // bytes), at the field, in the words the page itself uses for a type it refuses
      await photo.setInputFiles([file('fake.png', 'image/png', EXE)]);
      await expect
        .poll(() => told(page, 'photo').then((said) => said.error))
        .toBe('Error: “fake.png” is not a file of an accepted type (images).');
      expect(await page.locator('#uploads-photo li').count()).toBe(0);
      // a server in trouble: a sentence
      await photo.setInputFiles([file('later.png', 'image/png', PNG)]);
      await expect
        .poll(() => told(page, 'photo').then((said) => said.status))
        .toBe('Files cannot be received just now: wait a minute, then choose the file again');
      // a required field: a file held answers it; the last one removed, the input is required again
      const cv = page.getByLabel('Your CV');
      await cv.setInputFiles([file('cv.pdf', 'application/pdf', PDF)]);
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
  /** What has focus, as a keyboard user meets it: its tag, and its name or else its text. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = (globalThis as any).document.activeElement;
      return `${element?.tagName.toLowerCase()}:${element?.getAttribute('name') ?? element?.textContent.trim()}`;
    });
  /** Presses Tab until `target` has focus (at most 40 times); the names met on the way. */
  async function tabTo(page: Page, target: string): Promise<string[]> {
    const visited: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      visited.push(await focused(page));
      if (visited.at(-1) === target) return visited;
    }
    throw new Error(`Tab never reached ${target}: ${visited.join(', ')}`);
  }

  /**
   * Space on the focused file input opens the browser's file chooser, where `chosen` is picked.
   * On a loaded machine a press has now and then opened nothing: pressed again (at most three
   * times), the focus checked before each.
   */
  async function chooseByKeyboard(page: Page, on: string, chosen: ReturnType<typeof file>): Promise<void> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await focused(page)).toBe(on);
      const chooser = page.waitForEvent('filechooser', { timeout: 5_000 }).catch(() => undefined);
      await page.keyboard.press('Space');
      const opened = await chooser;
      if (opened) return opened.setFiles(chosen);
    }
    throw new Error(`Space on ${on} opened no file chooser`);
  }

  /** Posts the page (without JavaScript: a document loaded); the status the server answered the post with. */
  async function sent(page: Page, action: () => Promise<unknown>): Promise<number> {
    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/f/'),
    );
    await posting(page, action);
    return (await answered).status();
  }

  /** As a browser that does not check `required` itself (the server judges every post again). */
  const unchecked = (page: Page) =>
    page.evaluate(() => {
      (globalThis as any).document.querySelector('form[data-form]').noValidate = true;
    });

  /**
   * axe-core on a page opened without JavaScript, as it stands: the page runs no script, and
   * the browser fires no timer for one (axe waits on timers), so the test's own evaluation stands
   * in a timer that runs its callback as a microtask; the page's own script stays unrun.
   */
  async function axeWithoutScript(page: Page): Promise<void> {
    await page.evaluate(() => {
      const global = globalThis as any;
      global.setTimeout = (
        callback: (...values: unknown[]) => void,
        _delay?: number,
        ...values: unknown[]
      ) => {
        void Promise.resolve().then(() => callback(...values));
        return 0;
      };
      global.clearTimeout = () => {};
    });
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.className)).not.toContain(
      'js',
    );
  }

  /** The files a page lists as held for `fieldId`: each name, the upload id posted again, and its Remove box. */
  const kept = (page: Page, fieldId: string) =>
    page.locator(`#uploads-${fieldId} li`).evaluateAll((rows: any[]) =>
      rows.map((row) => ({
        name: row.querySelector('.upload__name')?.textContent as string,
        uploadId: row.querySelector('input[type=hidden]')?.value as string,
        remove: row.querySelector('input[type=checkbox][name=_remove]')?.value as string,
      })),
    );

  it('end to end, with JavaScript and the keyboard alone: a PDF chosen, its progress, listed, sent; the owner downloads the same bytes from the inbox', async () => {
    const owner = await openPage(browser, `${server.url}/app/signup`);
    const visitor = await openPage(browser, 'about:blank');
    const { page } = visitor;
    try {
      const { token } = await signUpInPage(owner.page, server, 'files-e2e');
      const created = await createForm(server, token, {
        title: 'Apply for the job',
        status: 'live',
        fields: [
          { id: 'name', type: 'text', label: 'Your name', required: true },
          {
            id: 'cv',
            type: 'file',
            label: 'Your CV',
            required: true,
            help: 'A PDF or a scan of it',
            maxFiles: 2,
            accept: ['.pdf', 'image/*'],
          },
        ],
        ui: { layout: 'classic', submitLabel: 'Apply' },
      });
      const formId = created.id as string;
      // the upload is held on its way until the test has seen its progress
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const uploads = await standIn(page, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${server.url}/f/${formId}`);

      if ((await focused(page)) !== 'input:name') await tabTo(page, 'input:name');
      await page.keyboard.type('Ada Lovelace');
      await tabTo(page, 'input:cv');
      // the file input opened from the keyboard: the browser's file chooser
      const cv = pdf(30_000);
      await chooseByKeyboard(page, 'input:cv', file('cv.pdf', 'application/pdf', cv));
      const progress = page.getByRole('progressbar', { name: 'Uploading cv.pdf' });
      await progress.waitFor();
      expect(await told(page, 'cv')).toEqual({ status: 'Uploading cv.pdf', error: undefined });
      release();
      // then listed: its name and size, the upload's id to post, a Remove button
      const row = page.locator('#uploads-cv li');
      await expect.poll(() => row.locator('input[type=hidden]').getAttribute('value')).toMatch(/^upl_/);
      expect(await progress.count()).toBe(0);
      expect((await row.textContent())?.replace(/\s+/g, ' ')).toContain('cv.pdf (29 kB)');
      expect(await told(page, 'cv')).toEqual({ status: 'cv.pdf uploaded', error: undefined });
      expect(uploads.map((upload) => upload.parts)).toEqual([['field', 'file:cv.pdf']]);
      await expectNoAxeViolations(page);
      await screenshot(page, 'hosted-file-field');
      await page.setViewportSize({ width: 320, height: 800 });
      expect(await scrollsHorizontally(page)).toBe(false);
      await page.setViewportSize({ width: 1280, height: 800 });

      // on with the keyboard: past the file's Remove button, to the submit button
      const visited = await tabTo(page, 'button:Apply');
      expect(visited).toEqual(['button:Remove cv.pdf', 'button:Apply']);
      await posting(page, () => page.keyboard.press('Enter'));
      await page.getByRole('heading', { level: 1, name: /thank/i }).waitFor();
      expect(visitor.problems).toEqual([]);

      const [submission, ...others] = await responses(formId, token);
      expect(others).toEqual([]);
      const [stored] = (submission?.answers.cv ?? []) as StoredFileAnswer[];
      expect(stored).toMatchObject({
        name: 'cv.pdf',
        type: 'application/pdf',
        size: cv.length,
        sha256: sha256(cv),
      });

      // the owner, in the dashboard's inbox: the file with its Download link, the same bytes
      await owner.page.goto(`${server.url}/app/forms/${formId}/inbox`);
      const rows = owner.page.locator('.inbox__row');
      await expect.poll(() => rows.count()).toBe(1);
      await rows.first().getByRole('button').click();
      const link = owner.page.getByRole('link', { name: 'Download cv.pdf' });
      const [download] = await Promise.all([owner.page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe('cv.pdf');
      expect(sha256(await fs.readFile((await download.path()) as string))).toBe(sha256(cv));
      // the link is the owner's route, which the session cookie opens
      const href = (await link.getAttribute('href')) as string;
      expect(href).toBe(`/responses/${submission?.id}/files/${stored?.id}`);
      const direct = await owner.page.request.get(`${server.url}${href}`);
      expect(direct.status()).toBe(200);
      expect(direct.headers()['content-disposition']).toMatch(/^attachment; filename="cv.pdf"/);
      expect(sha256(await direct.body())).toBe(sha256(cv));
      expect(owner.problems.filter((problem) => !dashboardNoise()(problem))).toEqual([]);
    } finally {
      await visitor.close();
      await owner.close();
    }
  });

  it('without JavaScript, a classic page refused for a missing answer keeps the file (listed, posted again), then stores it; axe-clean at 320 px', async () => {
    const formId = (
      await createForm(server, user.token, {
        title: 'Send us your CV',
        status: 'live',
        fields: [
          { id: 'name', type: 'text', label: 'Your name', required: true },
          { id: 'cv', type: 'file', label: 'Your CV', accept: ['.pdf', 'image/*'] },
        ],
        ui: { layout: 'classic', submitLabel: 'Apply' },
      })
    ).id as string;
    const view = await openPage(browser, `${server.url}/f/${formId}`, {
      javaScriptEnabled: false,
      width: 320,
    });
    const { page } = view;
    try {
      const cv = pdf(5000);
      await page.getByLabel('Your CV').setInputFiles(file('cv.pdf', 'application/pdf', cv));
      await unchecked(page);
      expect(await sent(page, () => page.getByRole('button', { name: 'Apply' }).click())).toBe(400);

      // the error, and the file kept: listed, its upload id in a hidden input, a Remove box
      const summary = page.getByRole('region', { name: 'There is a problem' });
      await summary.waitFor();
      expect(await summary.getByRole('link').first().getAttribute('href')).toBe('#field-name');
      const [held, ...more] = await kept(page, 'cv');
      expect(more).toEqual([]);
      expect(held?.name).toBe('cv.pdf');
      expect(held?.uploadId).toMatch(/^upl_/);
      expect(held?.remove).toBe(held?.uploadId);
      expect(await page.getByRole('checkbox', { name: 'Remove cv.pdf' }).isChecked()).toBe(false);
      expect(await scrollsHorizontally(page)).toBe(false);
      await screenshot(page, 'hosted-files-kept-320-light');
      await axeWithoutScript(page);
      // the Remove box is the page's own (the script would have put a button in its place)
      expect(await page.locator('#uploads-cv input[type=checkbox]').count()).toBe(1);
      expect(await responses(formId)).toEqual([]);

      // the name given, the page sent again: the kept file goes with it, chosen nowhere again
      await page.getByLabel('Your name').fill('Ada');
      expect(await sent(page, () => page.getByRole('button', { name: 'Apply' }).click())).toBe(200);
      await page.getByRole('heading', { level: 1, name: /thank/i }).waitFor();
      const stored = await responses(formId);
      expect(stored).toHaveLength(1);
      const files = stored[0]?.answers.cv as StoredFileAnswer[];
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({
        name: 'cv.pdf',
        type: 'application/pdf',
        size: cv.length,
        sha256: sha256(cv),
      });
      expect(sha256(await ownersDownload(stored[0]?.id ?? '', files[0]?.id ?? ''))).toBe(sha256(cv));
      expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('without JavaScript, a file the server refuses (too large, or not of its type by its bytes) is told at its field, the other answers kept', async () => {
    const before = (await responses(forms.classic)).length;
    const view = await openPage(browser, `${server.url}/f/${forms.classic}`, { javaScriptEnabled: false });
    const { page } = view;
    try {
      await page.getByLabel('Your name').fill('Ada');
      // without the page's script nothing checks the size before the bytes go
      await page.getByLabel('Your CV').setInputFiles(file('big.pdf', 'application/pdf', pdf(MiB + 1)));
      await page.getByLabel('A photo').setInputFiles(file('photo.png', 'image/png', PNG));
      expect(await sent(page, () => page.getByRole('button', { name: 'Apply' }).click())).toBe(400);
      const summary = page.getByRole('region', { name: 'There is a problem' });
      await summary.waitFor();
      const link = summary.getByRole('link', {
        name: 'Your CV: “big.pdf” is larger than 1 MB: choose a smaller file.',
      });
      expect(await link.getAttribute('href')).toBe('#field-cv');
      expect(await page.getByLabel('Your CV').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Your name').inputValue()).toBe('Ada');
      // the file that was taken is kept, listed under its field
      expect((await kept(page, 'photo')).map((held) => held.name)).toEqual(['photo.png']);
      expect(await kept(page, 'cv')).toEqual([]);
      await axeWithoutScript(page);

      // a program named .png: refused by its bytes, in the page's words
      await page.getByLabel('Your CV').setInputFiles(file('scan.png', 'image/png', EXE));
      expect(await sent(page, () => page.getByRole('button', { name: 'Apply' }).click())).toBe(400);
      await page
        .getByRole('region', { name: 'There is a problem' })
        .getByRole('link', { name: 'Your CV: “scan.png” is not a file of an accepted type (PDF or images).' })
        .waitFor();
      expect((await kept(page, 'photo')).map((held) => held.name)).toEqual(['photo.png']);

      // a file it takes: stored, with the photo kept from the first post
      await page.getByLabel('Your CV').setInputFiles(file('cv.pdf', 'application/pdf', PDF));
      expect(await sent(page, () => page.getByRole('button', { name: 'Apply' }).click())).toBe(200);
      const stored = await responses(forms.classic);
      expect(stored).toHaveLength(before + 1);
      expect(((stored[0]?.answers.cv ?? []) as StoredFileAnswer[]).map((held) => held.name)).toEqual([
        'cv.pdf',
      ]);
      expect(((stored[0]?.answers.photo ?? []) as StoredFileAnswer[]).map((held) => held.name)).toEqual([
        'photo.png',
      ]);
      expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('without JavaScript, one by one: a file refused is told at its question; a file on question 1 is kept across Next and Back, and stored at the end', async () => {
    const before = (await responses(forms.steps)).length;
    const view = await openPage(browser, `${server.url}/f/${forms.steps}`, { javaScriptEnabled: false });
    const { page } = view;
    try {
      // a file the server refuses first: the same question again, its refusal at the field
      await page.getByLabel('Your CV').setInputFiles(file('big.pdf', 'application/pdf', pdf(MiB + 1)));
      expect(await sent(page, () => page.getByRole('button', { name: 'Next' }).click())).toBe(400);
      await page
        .getByRole('region', { name: 'There is a problem' })
        .getByRole('link', { name: 'Your CV: “big.pdf” is larger than 1 MB: choose a smaller file.' })
        .waitFor();
      expect(await kept(page, 'cv')).toEqual([]);

      const cv = pdf(3000);
      await page.getByLabel('Your CV').setInputFiles(file('cv.pdf', 'application/pdf', cv));
      expect(await sent(page, () => page.getByRole('button', { name: 'Next' }).click())).toBe(200);
      await page.getByLabel('Your name').waitFor();
      // the file goes on with the page: its upload id, carried
      const carried = await page
        .locator('input[type=hidden][name=cv]')
        .evaluateAll((inputs: any[]) => inputs.map((input) => input.value as string));
      expect(carried).toHaveLength(1);
      expect(carried[0]).toMatch(/^upl_/);

      expect(await sent(page, () => page.getByRole('button', { name: 'Back' }).click())).toBe(200);
      // back on question 1: the file still listed, the question answered by it
      expect(await kept(page, 'cv')).toEqual([{ name: 'cv.pdf', uploadId: carried[0], remove: carried[0] }]);
      expect(await page.getByLabel('Your CV').evaluate((element: any) => element.required)).toBe(false);
      await screenshot(page, 'hosted-files-one-by-one-back');

      // Next without choosing it again, then to the end
      expect(await sent(page, () => page.getByRole('button', { name: 'Next' }).click())).toBe(200);
      await page.getByLabel('Your name').fill('Ada');
      expect(await sent(page, () => page.getByRole('button', { name: 'Apply' }).click())).toBe(200);
      await page.getByRole('heading', { level: 1, name: /thank/i }).waitFor();
      const stored = await responses(forms.steps);
      expect(stored).toHaveLength(before + 1);
      const files = stored[0]?.answers.cv as StoredFileAnswer[];
      expect(files.map(({ name, size, sha256 }) => ({ name, size, sha256 }))).toEqual([
        { name: 'cv.pdf', size: cv.length, sha256: sha256(cv) },
      ]);
      expect(sha256(await ownersDownload(stored[0]?.id ?? '', files[0]?.id ?? ''))).toBe(sha256(cv));
      expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('with JavaScript, one by one without page loads: a file uploaded on question 1 is listed again after Back (a Remove button), and stored at the end', async () => {
    const before = (await responses(forms.steps)).length;
    const view = await openPage(browser, `${server.url}/f/${forms.steps}`);
    const { page } = view;
    try {
      const cv = pdf(6000);
      await page.getByLabel('Your CV').setInputFiles(file('cv.pdf', 'application/pdf', cv));
      const uploadId = page.locator('#uploads-cv input[type=hidden]');
      await expect.poll(() => uploadId.getAttribute('value')).toMatch(/^upl_/);
      const id = (await uploadId.getAttribute('value')) as string;
      await posting(page, () => page.getByRole('button', { name: 'Next' }).click());
      await page.getByLabel('Your name').waitFor();
      await posting(page, () => page.getByRole('button', { name: 'Back' }).click());
      // the file held, listed as the server sent it, its box made a button by the script
      await page.getByRole('button', { name: 'Remove cv.pdf' }).waitFor();
      expect(await uploadId.getAttribute('value')).toBe(id);
      expect(await page.locator('#uploads-cv input[type=checkbox]').count()).toBe(0);
      expect(await page.getByLabel('Your CV').evaluate((element: any) => element.required)).toBe(false);
      await expectNoAxeViolations(page);
      await posting(page, () => page.getByRole('button', { name: 'Next' }).click());
      await page.getByLabel('Your name').fill('Ada');
      await posting(page, () => page.getByRole('button', { name: 'Apply' }).click());
      await page.getByRole('heading', { level: 1, name: /thank/i }).waitFor();
      const stored = await responses(forms.steps);
      expect(stored).toHaveLength(before + 1);
      expect(
        ((stored[0]?.answers.cv ?? []) as StoredFileAnswer[]).map(({ name, sha256 }) => ({ name, sha256 })),
      ).toEqual([{ name: 'cv.pdf', sha256: sha256(cv) }]);
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('without JavaScript, a ticked Remove box takes the file off the page and off the answer', async () => {
    const formId = (
      await createForm(server, user.token, {
        title: 'Send us your papers',
        status: 'live',
        fields: [
          { id: 'name', type: 'text', label: 'Your name', required: true },
          { id: 'papers', type: 'file', label: 'Your papers', maxFiles: 2, accept: ['.pdf', 'image/*'] },
        ],
        ui: { layout: 'classic', submitLabel: 'Apply' },
      })
    ).id as string;
    const view = await openPage(browser, `${server.url}/f/${formId}`, { javaScriptEnabled: false });
    const { page } = view;
    try {
      const cv = pdf(4000);
      await page
        .getByLabel('Your papers')
        .setInputFiles([file('cv.pdf', 'application/pdf', cv), file('photo.png', 'image/png', PNG)]);
      await unchecked(page);
      expect(await sent(page, () => page.getByRole('button', { name: 'Apply' }).click())).toBe(400);
      expect((await kept(page, 'papers')).map((held) => held.name)).toEqual(['cv.pdf', 'photo.png']);

      // the photo's box ticked (with the keyboard), the page posted again, still without the name
      await page.getByRole('checkbox', { name: 'Remove photo.png' }).focus();
      await page.keyboard.press('Space');
      await unchecked(page);
      expect(await sent(page, () => page.getByRole('button', { name: 'Apply' }).click())).toBe(400);
      expect((await kept(page, 'papers')).map((held) => held.name)).toEqual(['cv.pdf']);

      await page.getByLabel('Your name').fill('Ada');
      expect(await sent(page, () => page.getByRole('button', { name: 'Apply' }).click())).toBe(200);
      const stored = await responses(formId);
      expect(stored).toHaveLength(1);
      expect(((stored[0]?.answers.papers ?? []) as StoredFileAnswer[]).map((held) => held.name)).toEqual([
        'cv.pdf',
      ]);

      // and the last file removed: the answer has none
      const again = await openPage(browser, `${server.url}/f/${formId}`, { javaScriptEnabled: false });
      try {
        await again.page.getByLabel('Your papers').setInputFiles(file('cv.pdf', 'application/pdf', cv));
        await unchecked(again.page);
        expect(await sent(again.page, () => again.page.getByRole('button', { name: 'Apply' }).click())).toBe(
          400,
        );
        await again.page.getByRole('checkbox', { name: 'Remove cv.pdf' }).check();
        await again.page.getByLabel('Your name').fill('Grace');
        expect(await sent(again.page, () => again.page.getByRole('button', { name: 'Apply' }).click())).toBe(
          200,
        );
        const [latest] = await responses(formId);
        expect(latest?.answers.name).toBe('Grace');
        expect(latest?.answers.papers ?? []).toEqual([]);
        expect(again.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
      } finally {
        await again.close();
      }
      expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
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
