import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOfTemplate, TEMPLATES } from '../src/web/client/dashboard/forms/templates.js';
import { createTestApp, type TestApp } from './support/app.js';
import { signup, type TestUser } from './support/factories.js';

/**
 * The dashboard's templates (issue 25 item 7) against the real API: each is a form the server
 * takes as it is, publishes, and answers; personal data marked; its logic works.
 */

/** Answers that fill every required question of a template. */
const ANSWERS: Record<string, Record<string, unknown>> = {
  contact: { name: 'Ada', email: 'ada@example.com', message: 'Hello' },
  event: {
    full_name: 'Ada Lovelace',
    email: 'ada@example.com',
    attendance: 'in-person',
    guests: 1,
    dietary: true,
    dietary_details: 'Vegetarian',
  },
  feedback: { satisfaction: 2, improve: 'Faster answers' },
  job: {
    full_name: 'Ada Lovelace',
    email: 'ada@example.com',
    role: 'engineering',
    cv: 'https://example.com/cv',
    consent: true,
  },
  newsletter: { email: 'ada@example.com', topics: ['news', 'events'], consent: true },
};

describe('the templates', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitPublic: 1_000_000 });
    owner = await signup(t);
  });
  afterAll(() => t.close());

  it('are the five the issue names', () => {
    expect(TEMPLATES.map((template) => template.name)).toEqual([
      'Contact form',
      'Event registration',
      'Feedback',
      'Job application',
      'Newsletter sign-up',
    ]);
  });

  it.each(TEMPLATES.map((template) => [template.name, template] as const))(
    '%s: created with a readable id, published, answered; e-mail and phone are personal data',
    async (_name, template) => {
      const created = await t.request({
        method: 'POST',
        url: '/forms',
        auth: owner.token,
        body: bodyOfTemplate(template, 'development'),
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.id).toMatch(/^frm_[a-z0-9-]+-[0-9a-z]{8}$/);
      for (const field of created.body.fields) {
        if (field.type === 'email' || field.type === 'phone') expect(field.pii, field.id).toBe(true);
      }
      const published = await t.request({
        method: 'PUT',
        url: `/forms/${created.body.id}`,
        auth: owner.token,
        body: { status: 'live' },
      });
      expect(published.status, published.text).toBe(200);
      const answered = await t.request({
        method: 'POST',
        url: `/forms/${created.body.id}/submit`,
        body: { answers: ANSWERS[template.key] },
      });
      expect(answered.status, answered.text).toBe(201);
      const empty = await t.request({
        method: 'POST',
        url: `/forms/${created.body.id}/submit`,
        body: { answers: {} },
      });
      expect(empty.status).toBe(400);
    },
  );

  it("event registration's logic: guests and dietary needs only for those who come in person", async () => {
    const template = TEMPLATES.find((candidate) => candidate.key === 'event');
    if (!template) throw new Error('no event template');
    const created = await t.request({
      method: 'POST',
      url: '/forms',
      auth: owner.token,
      body: { ...bodyOfTemplate(template, 'development'), status: 'live' },
    });
    const online = await t.request({
      method: 'POST',
      url: `/forms/${created.body.id}/submit`,
      body: { answers: { full_name: 'Ada', email: 'ada@example.com', attendance: 'online', guests: 2 } },
    });
    // the JSON API refuses an answer to a question the logic hides (API.md §6.1)
    expect(online.status).toBe(400);
    expect(online.text).toContain('guests');
  });
});
