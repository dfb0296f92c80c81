import type { Page } from 'playwright-core';
import type { WebServer } from './browser.js';

/** What the dashboard's browser tests share: signing up as a person would, and the console noise that is no fault. */

export const PASSWORD = 'correct horse battery';

let counter = 0;

/**
 * Signs up through the dashboard's own form (which signs the person in) and ends on the forms
 * view; returns the address and a bearer token of the same account, to read back through the
 * API what the browser did.
 */
export async function signUpInPage(
  page: Page,
  server: WebServer,
  prefix = 'person',
): Promise<{ email: string; token: string }> {
  const email = `${prefix}${++counter}-${Date.now()}@example.com`;
  if (new URL(page.url()).pathname !== '/app/signup') await page.goto(`${server.url}/app/signup`);
  await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
  const login = await server.request({
    method: 'POST',
    url: '/auth/login',
    body: { email, password: PASSWORD },
  });
  return { email, token: login.body.token as string };
}

/**
 * What Chromium logs that is no fault of the page: the signed-out probe (401 of /auth/me), and
 * requests cut short by a navigation of the test's own. `also` adds a test's provoked statuses.
 */
export const dashboardNoise =
  (also: (problem: string) => boolean = () => false) =>
  (problem: string): boolean =>
    (/auth\/me/.test(problem) && /401/.test(problem)) ||
    problem.includes('net::ERR_ABORTED') ||
    also(problem);

/** A live form titled "Feedback" in development, made through the API; its id. */
export async function createLiveForm(
  server: WebServer,
  token: string,
  members: {
    fields: unknown[];
    title?: string;
    ui?: Record<string, unknown>;
    translations?: Record<string, unknown>;
  },
): Promise<string> {
  const form = await server.request({
    method: 'POST',
    url: '/forms',
    auth: token,
    body: { title: 'Feedback', environment: 'development', status: 'live', ...members },
  });
  if (form.status !== 201) throw new Error(`the form was refused: ${form.status} ${form.text}`);
  return form.body.id as string;
}
