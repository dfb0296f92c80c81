import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';

/**
 * How the hosted page answers each ending of `SubmissionService.submitPost` (API.md §6.1,
 * §11.1) that its other tests leave aside: spam found by a rule (refused in words naming no
 * mechanism, or stored flagged), a one-by-one form refused at its last page (shown on the first
 * question with an error), and the answers the logic hides dropped, not refused.
 */

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000 });
  user = await signup(t);
});
afterAll(async () => t.close());

const post = (formId: string, fields: Record<string, string>) =>
  t.request({
    method: 'POST',
    url: `/f/${formId}`,
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
const stored = async (formId: string) =>
  (
    await t.request({
      method: 'GET',
      url: `/responses?form_id=${formId}&environment=development`,
      auth: user.token,
    })
  ).body.data as Array<{ answers: Record<string, unknown>; status: string }>;
const titleOf = (page: Response) => /<title>([^<]*)<\/title>/.exec(page.text)?.[1];

const FIELDS = [
  { id: 'name', type: 'text', label: 'Name', required: true },
  { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support'] },
  { id: 'order', type: 'text', label: 'Order number', pattern: '[A-Z]-[0-9]+' },
  { id: 'message', type: 'textarea', label: 'Message' },
];
const LOGIC = { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] }] };
const RULE = { field: 'message', op: 'contains', value: 'casino' };

describe('a classic page’s post', () => {
  it('refused by a spam rule: the words name no mechanism, nothing stored', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
      spamProtection: { rules: [RULE], action: 'reject' },
    });
    const refused = await post(form.id, { name: 'Bot', message: 'Cheap CASINO chips' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Your response could not be accepted.');
    expect(refused.text).not.toMatch(/rule|casino/i);
    expect(await stored(form.id)).toEqual([]);
  });

  it('found by a spam rule that flags: stored flagged, the respondent thanked', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
      spamProtection: { rules: [RULE], action: 'flag' },
    });
    const thanked = await post(form.id, { name: 'Bot', message: 'casino' });
    expect(thanked.status).toBe(200);
    expect(thanked.text).toContain('<h1 class="form-title">Thank you</h1>');
    expect(await stored(form.id)).toMatchObject([{ status: 'flagged', answers: { name: 'Bot' } }]);
  });

  it('drops an answer the logic hides instead of refusing it', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      logic: LOGIC,
      ui: { layout: 'classic' },
    });
    expect((await post(form.id, { name: 'Ada', topic: 'sales', order: 'not checked' })).status).toBe(200);
    expect(await stored(form.id)).toMatchObject([{ answers: { name: 'Ada', topic: 'sales' } }]);
  });
});

describe('a one-by-one form refused at its last page', () => {
  it('shows the first question (in order) with an error, with its own errors only', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      logic: LOGIC,
      ui: { layout: 'one-by-one' },
    });
    // every page but the last was passed on the way; its answers come back changed (a page edited by hand)
    const refused = await post(form.id, {
      _question: 'message',
      _action: 'submit',
      name: '',
      topic: 'support',
      order: 'lowercase',
      message: 'Hello',
    });
    expect(refused.status).toBe(400);
    expect(titleOf(refused)).toBe(`Error: Question 1 of 4 – ${form.title}`);
    expect(refused.text).toContain('Name: Answer this question.');
    expect(refused.text).not.toContain('Order number must match');
    expect(await stored(form.id)).toEqual([]);
  });
});
