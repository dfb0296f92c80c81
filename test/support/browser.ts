import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page, type Response } from 'playwright-core';
import type { Config } from '../../src/config.js';
import { createTestApp, type TestApp } from './app.js';
import { browserTestsSkip, CHROMIUM_PATH } from './services.js';

/**
 * The pages in a real browser: Debian's Chromium (`apt-get install chromium`, or CHROMIUM_PATH;
 * .ci/run installs it), driven by playwright-core, against a test app listening on a loopback
 * port. Without it vitest.config.ts leaves these tests out of the run (services.ts).
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
/**
 * axe-core's minified build, evaluated in the page once per document. Measured in this Chromium:
 * the full `axe.source` (1.5 MB) took 0.3–1.4 s to evaluate a time, most of the browser tests' axe
 * time (14 of dashboard.test's 64 s), and returning its last value to Node doubled that; the
 * minified build, with nothing returned, 0.2–0.6 s.
 */
const AXE_SOURCE = `${fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')}\n;0`;
/** The rules API.md §11 holds the pages to. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface WebServer extends TestApp {
  /** `http://127.0.0.1:<port>` */
  url: string;
}

/** A test app (its own database) listening on a free loopback port. */
export async function startWebServer(overrides: Partial<Config> = {}): Promise<WebServer> {
  const testApp = await createTestApp(overrides);
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = testApp.app.server.address() as AddressInfo;
  return { ...testApp, url: `http://127.0.0.1:${port}` };
}

export async function launchBrowser(): Promise<Browser> {
  const missing = browserTestsSkip();
  if (missing) throw new Error(`${missing.missing}: ${missing.install}`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    env: withUtf8Locale(process.env),
  });
}

/**
 * Chromium names a download in the locale's character set: under no locale at all (POSIX, as in a
 * bare `env -i` shell) a Content-Disposition name beyond ASCII ("Café …") came out as "download".
 */
function withUtf8Locale(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG;
  return locale && /utf-?8/i.test(locale) ? env : { ...env, LC_ALL: 'C.UTF-8' };
}

export interface ViewOptions {
  colorScheme?: 'light' | 'dark';
  /** CSS pixels; 1280 unless told (320: the narrowest screen the pages must fit). */
  width?: number;
  javaScriptEnabled?: boolean;
  /** A phone: touch for input, a coarse pointer (taps, not clicks). */
  touch?: boolean;
  /** An IANA time zone for the page's clock (the system's unless told). */
  timezoneId?: string;
}

/** An open page, and everything that went wrong on it: console errors, uncaught exceptions, CSP violations, failed requests. */
export interface View {
  page: Page;
  context: BrowserContext;
  /** The answer to the page's own request. */
  response: Response | null;
  problems: string[];
  close(): Promise<void>;
}

/**
 * Opens `url` in a fresh browser context and waits for the load event. The page runs under its
 * own Content-Security-Policy (never bypassed): a violation is reported from the page itself
 * (`securitypolicyviolation`) into `problems`.
 */
export async function openPage(browser: Browser, url: string, options: ViewOptions = {}): Promise<View> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: options.width ?? 1280, height: 800 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    hasTouch: options.touch ?? false,
    isMobile: options.touch ?? false,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  const problems: string[] = [];
  await context.exposeBinding('__intakeReportViolation', (_source, text: string) => {
    problems.push(`CSP violation: ${text}`);
  });
  // Injected by the browser itself (not a <script>): the page's CSP does not apply to it.
  await context.addInitScript(
    `document.addEventListener('securitypolicyviolation', (event) => window.__intakeReportViolation(event.violatedDirective + ' refused ' + (event.blockedURI || 'inline') + ' (' + event.sourceFile + ':' + event.lineNumber + ')'));`,
  );
  // Well under the test's own timeout, so that a wait that never ends says what it waited for.
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error')
      problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.request().isNavigationRequest()) {
      problems.push(`${response.status()} for ${response.url()}`);
    }
  });
  const response = await page.goto(url, { waitUntil: 'load' });
  return { page, context, response, problems, close: () => context.close() };
}

/** Fails with every axe-core violation of the page (API.md §11's tags), one line each with where it is. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol, not as a <script>: the page's CSP stays as it is.
  // a dashboard's views are one document: axe stays loaded from one check to the next
  if (!(await page.evaluate(() => typeof (globalThis as any).axe?.run === 'function')))
    await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const results = await (globalThis as any).axe.run((globalThis as any).document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return (results.violations as any[]).map((violation) => ({
      id: violation.id as string,
      impact: violation.impact as string,
      help: violation.help as string,
      targets: (violation.nodes as any[]).map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
    }));
  }, AXE_TAGS);
  const lines = violations.flatMap((violation) => [
    `${violation.id} (${violation.impact}): ${violation.help}`,
    ...violation.targets.map((target) => `    ${target.replace(/\n/g, ' ')}`),
  ]);
  if (lines.length > 0)
    throw new Error(`axe found ${violations.length} violation(s) on ${page.url()}:\n${lines.join('\n')}`);
}

/** Whether the page scrolls sideways (API.md §11: none at 320 CSS pixels). */
export async function scrollsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const html = (globalThis as any).document.documentElement;
    return html.scrollWidth > html.clientWidth;
  });
}

/** Saves a screenshot when SCREENSHOT_DIR is set (to look at a page by eye); otherwise nothing. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
}

/**
 * Does what posts the page and waits for the page that answers. Without JavaScript: the new
 * document committed, then loaded (waiting for the URL would not do: a page posts to its own
 * address). With it (the page script marks <html class="js">), no document is loaded: the page
 * the server answered replaces the body, or the script's own checks put an error summary up.
 */
export async function posting(page: Page, action: () => Promise<unknown>): Promise<void> {
  const scripted = await page.evaluate(() => {
    const document = (globalThis as any).document;
    document.body.dataset.sent = '1';
    document.querySelector('.error-summary')?.setAttribute('data-old', '');
    return document.documentElement.classList.contains('js') as boolean;
  });
  if (!scripted) {
    const navigated = page.waitForEvent('framenavigated', {
      predicate: (frame) => frame === page.mainFrame(),
    });
    await action();
    await navigated;
    await page.waitForLoadState('load');
    return;
  }
  await action();
  await page.waitForFunction(
    () => {
      const document = (globalThis as any).document;
      return !document.body.dataset.sent || document.querySelector('.error-summary:not([data-old])') !== null;
    },
    undefined,
    { polling: 20 },
  );
}

/** What Chromium reports of a refused post (400), which a page with errors is: the document's, or the script's fetch. */
export const refusedPost = (problem: string) => /status of 400|^400 for .*\/f\//.test(problem);
