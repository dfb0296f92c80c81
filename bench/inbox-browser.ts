import fs from 'node:fs';
import { chromium } from 'playwright-core';

/**
 * The inbox of a form with a million submissions, as a person meets it in Chromium (issue 13):
 * how long from asking for the page to its first rows drawn, and from a click on "Star" to the
 * star drawn. Times are the page's own clock (performance.now), taken by a script the browser
 * runs before the dashboard's: a MutationObserver notes the first rows' arrival, and the next
 * animation frame (after which the browser paints) is the moment counted.
 */

export interface InboxBrowserFigures {
  /** Full loads of /app/forms/{id}/inbox with the assets cached: navigation start → first rows painted. */
  firstRows: Summary;
  /** The same, the first load of all (nothing cached). */
  coldMs: number;
  /** The forms list: navigation start → the inbox form's counts painted (GET /responses/summary over every row). */
  formsCounts: Summary;
  /** Click on Star (or Unstar) → the button's new words painted. */
  starClick: Summary;
  chromium: string;
}

export interface Summary {
  p50: number;
  p95: number;
  max: number;
  count: number;
}

type Watch = 'rows' | 'counts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Set before the dashboard runs: when the first element matching `window.__watch` appears, the next frame's time. */
const WATCHER = `
  window.__seenAt = undefined;
  new MutationObserver((_, observer) => {
    if (window.__seenAt !== undefined || !window.__watch) return;
    if (!window.__watch()) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__seenAt = performance.now(); });
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

/**
 * Clicks the open response's Star (or Unstar) button and resolves with the time to the frame
 * that shows its new words. A string: the bench runs under tsx, whose esbuild wraps
 * named functions in a helper the page does not have (and CDP's evaluate is not bound by the CSP).
 */
const STAR_CLICK = `(() => {
  const button = Array.from(document.querySelectorAll('.inbox__detail button')).find((element) => /^(Unstar|Star)$/.test(element.textContent));
  if (!button) throw new Error('no Star button');
  const before = button.textContent;
  const started = performance.now();
  button.click();
  return new Promise((resolve) => {
    const look = () => {
      if (button.textContent !== before) requestAnimationFrame(() => resolve(performance.now() - started));
      else requestAnimationFrame(look);
    };
    // Preact renders on the next microtask: look then, and at each frame after
    queueMicrotask(look);
  });
})()`;

function summary(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? Number.NaN, count: sorted.length };
}

export function chromiumMissing(): string | undefined {
  return fs.existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
}

export async function measureInboxInBrowser(options: {
  url: string;
  email: string;
  password: string;
  formId: string;
  formTitle: string;
  loads?: number;
  clicks?: number;
}): Promise<InboxBrowserFigures> {
  const { url, email, password, formId, formTitle, loads = 15, clicks = 30 } = options;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // the session cookie, as the log-in form would set it
    const login = await context.request.post(`${url}/auth/login`, {
      data: { email, password, cookie: true },
    });
    if (!login.ok()) throw new Error(`log-in answered ${login.status()}`);
    const page = await context.newPage();
    await page.addInitScript(WATCHER);

    /**
     * Loads `path` and waits for what `watch` finds in the page (the first 50 rows, or the form's
     * counts); the page's time to it. Functions, not strings: the dashboard's CSP forbids eval.
     */
    const timeTo = async (path: string, watch: Watch): Promise<number> => {
      await page.goto(`${url}${path}`, { waitUntil: 'commit' });
      await page.evaluate(
        ({ kind, title }) => {
          const win = window as unknown as Record<string, unknown>;
          const found =
            kind === 'rows'
              ? () => document.querySelectorAll('.inbox__row').length >= 50
              : () =>
                  Array.from(document.querySelectorAll('.card')).some(
                    (card) => card.textContent?.includes(title) && /[0-9,]+ responses/.test(card.textContent),
                  );
          win.__watch = found;
          // it may have come before the watch was set (a fast answer): then it is measured now
          if (found() && win.__seenAt === undefined)
            requestAnimationFrame(() => {
              win.__seenAt ??= performance.now();
            });
        },
        { kind: watch, title: formTitle },
      );
      await page.waitForFunction(
        () => (window as unknown as Record<string, unknown>).__seenAt !== undefined,
        null,
        {
          timeout: 30_000,
        },
      );
      return (await page.evaluate(() => (window as unknown as Record<string, unknown>).__seenAt)) as number;
    };

    const inbox = `/app/forms/${encodeURIComponent(formId)}/inbox`;
    const coldMs = await timeTo(inbox, 'rows');
    const firstRows: number[] = [];
    for (let i = 0; i < loads; i++) firstRows.push(await timeTo(inbox, 'rows'));
    const formsCounts: number[] = [];
    for (let i = 0; i < Math.min(loads, 10); i++) formsCounts.push(await timeTo('/app', 'counts'));

    await timeTo(inbox, 'rows');
    await page.locator('.inbox__open').first().click();
    await page.getByRole('heading', { level: 2, name: /^Response of / }).waitFor();
    const starClick: number[] = [];
    for (let i = 0; i < clicks; i++) {
      // the server's answer is waited for before the next click (a person does not click thirty times a second)
      const answered = page.waitForResponse((response) => response.url().endsWith('/star'));
      answered.catch(() => undefined); // a failed click below is the error reported
      const ms = (await page.evaluate(STAR_CLICK)) as number;
      starClick.push(ms);
      if (!(await answered).ok()) throw new Error('the server refused a star');
    }
    return {
      firstRows: summary(firstRows),
      coldMs,
      formsCounts: summary(formsCounts),
      starClick: summary(starClick),
      chromium: browser.version(),
    };
  } finally {
    await browser.close();
  }
}
