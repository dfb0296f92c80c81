import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';

/**
 * The credit at the foot of the hosted page (API.md §13): "Powered by Intake" in the page's
 * language, hidden by a form's `ui.branding: false`, and on every form by the instance's
 * `BRANDING=false`. Every page of the form keeps or hides it alike: the form, a one-by-one step,
 * a refused post, the thank-you page.
 */

const FIELDS = [
  { id: 'name', type: 'text', label: 'Name', required: true },
  { id: 'city', type: 'text', label: 'City' },
];
const CREDIT = /<p class="hosted__footer">[^<]*<span class="hosted__brand">Intake<\/span>/;

const post = (t: TestApp, url: string, fields: Record<string, string>) =>
  t.request({
    method: 'POST',
    url,
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** Every page a respondent meets on a classic form and a one-by-one one: their HTML. */
async function pagesOf(t: TestApp, owner: TestUser, ui: Record<string, unknown>): Promise<string[]> {
  const classic = await createForm(t, owner.token, {
    status: 'live',
    fields: FIELDS,
    ui: { ...ui, layout: 'classic' },
  });
  const steps = await createForm(t, owner.token, {
    status: 'live',
    fields: FIELDS,
    ui: { ...ui, layout: 'one-by-one' },
  });
  const pages = [
    await t.request({ method: 'GET', url: `/f/${classic.id}` }),
    await post(t, `/f/${classic.id}`, { name: '' }),
    await post(t, `/f/${classic.id}`, { name: 'Ada' }),
    await t.request({ method: 'GET', url: `/f/${steps.id}?lang=de` }),
    await t.request({ method: 'GET', url: `/f/${steps.id}?step=name` }),
  ];
  for (const page of pages) expect(page.status, page.text).toBeLessThan(500);
  expect(pages.map((page) => page.status)).toEqual([200, 400, 200, 200, 200]);
  return pages.map((page) => page.text);
}

describe('the credit at the foot of the hosted page', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signup(t);
  });
  afterAll(() => t.close());

  it('is there by default, on every page, in the page’s language', async () => {
    const pages = await pagesOf(t, owner, {});
    for (const page of pages) expect(page).toMatch(CREDIT);
    const german = await t.request({
      method: 'GET',
      url: `/f/${(await createForm(t, owner.token, { status: 'live', fields: FIELDS, ui: { language: 'de' } })).id}`,
    });
    expect(german.text).toContain('Bereitgestellt mit <span class="hosted__brand">Intake</span>');
  });

  it('is hidden on every page of a form with ui.branding: false (and kept with true)', async () => {
    for (const page of await pagesOf(t, owner, { branding: false })) {
      expect(page).not.toContain('hosted__footer');
      expect(page).not.toContain('hosted__brand');
    }
    for (const page of await pagesOf(t, owner, { branding: true })) expect(page).toMatch(CREDIT);
  });

  it('refuses a ui.branding that is not true or false, naming it', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/forms',
      auth: owner.token,
      body: { title: 'Branded', environment: 'development', fields: FIELDS, ui: { branding: 'no' } },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.errors)).toContain('ui.branding');
  });
});

describe('BRANDING=false (the instance)', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ branding: false });
    owner = await signup(t);
  });
  afterAll(() => t.close());

  it('hides the credit on every form, whatever the form says', async () => {
    for (const ui of [{}, { branding: true }]) {
      for (const page of await pagesOf(t, owner, ui)) expect(page).not.toContain('hosted__footer');
    }
  });
});
