import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startWebServer, type WebServer } from '../support/browser.js';
import { createForm, signup, type TestUser } from '../support/factories.js';

/**
 * The budgets of API.md §11.1 (gzip -9, kB = 1000 bytes, a 20-field form), as Chromium loads the
 * page: every request the page makes on load is recorded, must be a GET to the page's own origin
 * (or, for a form with a CAPTCHA, to its provider: a stand-in served by the test, as this machine
 * reaches no provider), and each same-origin one is fetched again uncompressed and gzipped at level 9:
 * HTML ≤ 20 kB (inline CSS and JS count there), CSS ≤ 10 kB (the stylesheets), first-party
 * JavaScript ≤ 8 kB (the scripts), everything together ≤ 40 kB. The favicon the page names is
 * counted too, whether or not headless Chromium asks for it.
 */

const BUDGET = { html: 20_000, css: 10_000, js: 8_000, total: 40_000 };

/** Every field type, with what makes a page heavier: help, placeholders, options, limits. */
const KINDS = [
  { type: 'text', placeholder: 'Ada Lovelace', minLength: 2, maxLength: 80 },
  { type: 'email', placeholder: 'you@example.com' },
  { type: 'textarea', maxLength: 2000 },
  { type: 'select', options: ['Sales', 'Support', 'Billing', { value: 'other', label: 'Something else' }] },
  { type: 'select', multiple: true, options: ['Forms', 'Webhooks', 'Analytics', 'Exports'] },
  { type: 'number', min: 1, max: 500, integer: true },
  { type: 'checkbox' },
  { type: 'date' },
  { type: 'url', placeholder: 'https://' },
  { type: 'phone' },
  { type: 'rating', max: 5 },
];

/** 20 questions, every other one required, each with a label of ordinary length and help. */
const FIELDS = Array.from({ length: 20 }, (_, i) => ({
  ...KINDS[i % KINDS.length],
  id: `question_${i + 1}`,
  label: `Question number ${i + 1}, asked in a sentence of ordinary length?`,
  help: 'Some help text that explains what is being asked and why it matters.',
  required: i % 2 === 0,
}));

/** The four languages beside English of the five-language form. */
const LANGUAGES = ['de', 'fr', 'ar', 'ja'] as const;

/** Every text of the form in `lang`, each marked with its language so a page can be searched for it. */
function translationIn(lang: string) {
  return {
    title: `[${lang}] A form of twenty questions`,
    fields: Object.fromEntries(
      FIELDS.map((field) => [
        field.id,
        {
          label: `[${lang}] ${field.label}`,
          help: `[${lang}] ${field.help}`,
          ...('options' in field && field.options
            ? {
                options: Object.fromEntries(
                  field.options.map((option) => {
                    const value = typeof option === 'string' ? option : option.value;
                    return [value, `[${lang}] ${value}`];
                  }),
                ),
              }
            : {}),
        },
      ]),
    ),
  };
}

interface Measured {
  html: number;
  css: number;
  js: number;
  other: number;
  total: number;
  urls: string[];
}

describe('the hosted form within its budgets in Chromium (API.md §11.1)', () => {
  let server: WebServer;
  let browser: Browser;
  let user: TestUser;
  const forms: Record<'classic' | 'one-by-one' | 'captcha' | 'five languages', string> = {
    classic: '',
    'one-by-one': '',
    captcha: '',
    'five languages': '',
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
    user = await signup(server);
    for (const layout of ['classic', 'one-by-one'] as const) {
      const form = await createForm(server, user.token, {
        title: 'A form of twenty questions',
        status: 'live',
        fields: FIELDS,
        ui: {
          layout,
          description: 'Twenty questions, as many as the budgets of API.md §11.1 are counted for.',
          accentColor: '#0a7ea4',
          progress: 'bar',
        },
        spamProtection: { honeypot: { field: 'website_hp' }, action: 'reject' },
      });
      forms[layout] = form.id;
    }
    const captcha = await createForm(server, user.token, {
      title: 'A form of twenty questions and a CAPTCHA',
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
      spamProtection: {
        captcha: { provider: 'turnstile', siteKey: 'site', secret: 'secret' },
        action: 'reject',
      },
    });
    forms.captcha = captcha.id;
    const multilingual = await createForm(server, user.token, {
      title: 'A form of twenty questions in five languages',
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
      translations: Object.fromEntries(LANGUAGES.map((lang) => [lang, translationIn(lang)])),
    });
    forms['five languages'] = multilingual.id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * Loads `path` in a fresh context, records every request until the network is idle, and weighs
   * each same-origin one; `provider` is the one other origin allowed (a CAPTCHA's, stood in for).
   */
  async function measure(path: string, provider?: string): Promise<Measured> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const provided: string[] = [];
    if (provider)
      await context.route(`${provider}/**`, (route) => {
        provided.push(route.request().url());
        return route.fulfill({ contentType: 'text/javascript', body: 'window.turnstile = {};' });
      });
    try {
      const page = await context.newPage();
      const requests: Array<{ url: string; method: string; type: string }> = [];
      page.on('request', (request) =>
        requests.push({ url: request.url(), method: request.method(), type: request.resourceType() }),
      );
      const response = await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
      expect(response?.status(), path).toBe(200);
      await page.waitForLoadState('networkidle');

      const origin = new URL(server.url).origin;
      for (const request of requests) {
        expect([origin, provider], `${request.url} (from ${path})`).toContain(new URL(request.url).origin);
        expect(request.method, request.url).toBe('GET');
      }
      if (provider) expect(provided.length, `${provider} asked`).toBeGreaterThan(0);
      // the provider's files are theirs, not the page's first-party weight
      requests.splice(
        0,
        requests.length,
        ...requests.filter((request) => new URL(request.url).origin === origin),
      );
      const icon = await page.evaluate(
        () => (globalThis as any).document.querySelector('link[rel="icon"]')?.href as string | undefined,
      );
      if (icon && !requests.some((request) => request.url === icon))
        requests.push({ url: icon, method: 'GET', type: 'other' });
      expect(requests.filter((request) => request.type === 'document')).toHaveLength(1);

      const measured: Measured = { html: 0, css: 0, js: 0, other: 0, total: 0, urls: [] };
      for (const request of requests) {
        const answer = await fetch(request.url, { headers: { 'accept-encoding': 'identity' } });
        expect(answer.status, request.url).toBe(200);
        // sent as it is: no content coding the size would be measured through
        expect(answer.headers.get('content-encoding') ?? 'identity', request.url).toBe('identity');
        const size = zlib.gzipSync(Buffer.from(await answer.arrayBuffer()), { level: 9 }).length;
        const kind =
          request.type === 'document'
            ? 'html'
            : request.type === 'stylesheet'
              ? 'css'
              : request.type === 'script'
                ? 'js'
                : 'other';
        measured[kind] += size;
        measured.total += size;
        measured.urls.push(`${request.type} ${new URL(request.url).pathname} ${size} B`);
      }
      return measured;
    } finally {
      await context.close();
    }
  }

  function expectWithinBudgets(measured: Measured, label: string) {
    console.info(
      `${label}: HTML ${measured.html} B, CSS ${measured.css} B, JS ${measured.js} B, other ${measured.other} B, total ${measured.total} B (gzip -9)\n  ${measured.urls.join('\n  ')}`,
    );
    expect(measured.html, label).toBeGreaterThan(0);
    expect(measured.css, label).toBeGreaterThan(0);
    expect(measured.html, `${label}: HTML`).toBeLessThanOrEqual(BUDGET.html);
    expect(measured.css, `${label}: CSS`).toBeLessThanOrEqual(BUDGET.css);
    expect(measured.js, `${label}: JavaScript`).toBeLessThanOrEqual(BUDGET.js);
    expect(measured.total, `${label}: everything`).toBeLessThanOrEqual(BUDGET.total);
  }

  it('keeps the classic page (every field on it) within the budgets, asking nothing of another origin', async () => {
    const measured = await measure(`/f/${forms.classic}`);
    expectWithinBudgets(measured, 'classic');
    // the page's one script, first-party
    expect(measured.js).toBeGreaterThan(0);
  });

  it("keeps a form with a CAPTCHA within them too, its provider's the only other origin asked", async () => {
    expectWithinBudgets(await measure(`/f/${forms.captcha}`, 'https://challenges.cloudflare.com'), 'captcha');
  });

  it('keeps the one-by-one page within the budgets', async () => {
    expectWithinBudgets(await measure(`/f/${forms['one-by-one']}`), 'one-by-one');
  });

  it('keeps a form in five languages within them, sending only the page’s language', async () => {
    for (const lang of ['en', ...LANGUAGES]) {
      const measured = await measure(`/f/${forms['five languages']}?lang=${lang}`);
      expectWithinBudgets(measured, `five languages, ${lang}`);
      const html = await fetch(`${server.url}/f/${forms['five languages']}?lang=${lang}`).then((r) =>
        r.text(),
      );
      for (const other of LANGUAGES.filter((each) => each !== lang)) expect(html).not.toContain(`[${other}]`);
      if (lang !== 'en') expect(html).toContain(`[${lang}] Question number 20`);
    }
  });

  it('keeps the embedded pages (?embed=1) within the budgets', async () => {
    const classic = await measure(`/f/${forms.classic}?embed=1`);
    expectWithinBudgets(classic, 'classic, embedded');
    // the page's script, which tells the frame's parent its height: first-party, counted as JavaScript
    expect(classic.js).toBeGreaterThan(0);
    expectWithinBudgets(await measure(`/f/${forms['one-by-one']}?embed=1`), 'one-by-one, embedded');
  });
});
