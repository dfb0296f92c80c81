import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { formBody, signup } from '../../../test/support/factories.js';
import {
  CAPTCHA_SECRET,
  createForm,
  expectFieldError,
  type FormPage,
  formsApi,
  richForm,
} from '../../../test/support/forms.js';

/**
 * API.md §5: the form endpoints — the write-only CAPTCHA secret, and copying a form to another
 * environment.
 * The others: forms-create, forms-read, forms-update (shared helpers in test/support/forms.ts).
 */

describe('forms endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const { get, post, put } = formsApi(() => t);

  describe('CAPTCHA secret (write-only)', () => {
    const withCaptcha = (captcha: Record<string, unknown>) => ({
      spamProtection: {
        captcha: { provider: 'turnstile', siteKey: 'site-key-1', ...captcha },
        action: 'reject',
      },
    });

    async function storedDefinition(id: string): Promise<string> {
      const row = await t.app.intake.database.db
        .selectFrom('forms')
        .select('definition')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return typeof row.definition === 'string' ? row.definition : JSON.stringify(row.definition);
    }

    /** The stored secret, decrypted: it is kept envelope-encrypted, never in plain. */
    async function storedSecret(id: string): Promise<string> {
      const definition = JSON.parse(await storedDefinition(id));
      const ciphertext: string = definition.spamProtection.captcha.secret;
      expect(ciphertext).toMatch(/^enc:v1:local:/);
      return t.app.intake.envelope.decrypt(ciphertext);
    }

    it('shows hasSecret: true and never the secret, on create, read and list', async () => {
      const user = await signup(t);
      const created = await post(formBody(withCaptcha({ secret: CAPTCHA_SECRET })), user.token);
      expect(created.status).toBe(201);
      const responses = [
        created,
        await get(`/forms/${created.body.id}`, user.token),
        await get<FormPage>('/forms?environment=development', user.token),
      ];
      for (const response of responses) {
        expect(response.text).not.toContain(CAPTCHA_SECRET);
        expect(response.text).not.toMatch(/"secret"/);
      }
      expect(created.body.spamProtection?.captcha).toEqual({
        provider: 'turnstile',
        siteKey: 'site-key-1',
        hasSecret: true,
      });
      expect(await storedDefinition(created.body.id)).not.toContain(CAPTCHA_SECRET);
      expect(await storedSecret(created.body.id)).toBe(CAPTCHA_SECRET);
    });

    it('keeps the stored secret on a PUT that leaves it out but keeps provider and site key', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, withCaptcha({ minScore: 0.5, hasSecret: true }), user.token);
      expect(response.status).toBe(200);
      expect(response.body.spamProtection?.captcha).toEqual({
        provider: 'turnstile',
        siteKey: 'site-key-1',
        minScore: 0.5,
        hasSecret: true,
      });
      expect(await storedSecret(created.id)).toBe(CAPTCHA_SECRET);
      // and on a PUT that does not touch spamProtection at all
      expect(
        (await put(created.id, { title: 'Other' }, user.token)).body.spamProtection?.captcha?.hasSecret,
      ).toBe(true);
      expect(await storedSecret(created.id)).toBe(CAPTCHA_SECRET);
    });

    it('refuses a new site key without a secret (a secret belongs to one site key)', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, withCaptcha({ siteKey: 'site-key-2' }), user.token);
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, 'spamProtection.captcha.secret', 'required');
      expect(await storedSecret(created.id)).toBe(CAPTCHA_SECRET);
    });

    it('replaces the secret when a new one is sent', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, withCaptcha({ secret: 'brand-new-secret' }), user.token);
      expect(response.status).toBe(200);
      expect(response.text).not.toContain('brand-new-secret');
      const stored = await storedDefinition(created.id);
      expect(stored).not.toContain('brand-new-secret');
      expect(stored).not.toContain(CAPTCHA_SECRET);
      expect(await storedSecret(created.id)).toBe('brand-new-secret');
    });

    it('refuses a change of provider without a secret: 400 invalid_form, nothing changes', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, withCaptcha({ provider: 'hcaptcha' }), user.token);
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, 'spamProtection.captcha.secret', 'required');
      const read = await get(`/forms/${created.id}`, user.token);
      expect(read.body.spamProtection?.captcha?.provider).toBe('turnstile');
      expect(read.body.version).toBe(1);
    });

    it('accepts a change of provider with a new secret', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(
        created.id,
        withCaptcha({ provider: 'recaptcha', secret: 'recaptcha-secret', minScore: 0.7 }),
        user.token,
      );
      expect(response.status).toBe(200);
      expect(response.body.spamProtection?.captcha).toMatchObject({ provider: 'recaptcha', hasSecret: true });
    });

    it('drops the captcha with spamProtection: null', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, { spamProtection: null }, user.token);
      expect(response.status).toBe(200);
      expect(response.body.spamProtection).toBeNull();
      expect(await storedDefinition(created.id)).not.toContain(CAPTCHA_SECRET);
    });
  });

  describe('copying a form to another environment', () => {
    it('GET, change environment, drop id, POST: 201 in the other environment, the original untouched', async () => {
      const user = await signup(t);
      const original = await createForm(t, user.token, richForm({ spamProtection: null, status: 'live' }));
      await put(original.id, { title: 'Edited once' }, user.token);
      const read = await get(`/forms/${original.id}`, user.token);
      const { id: _id, ...copyBody } = read.body;
      const response = await post({ ...copyBody, environment: 'production' }, user.token);
      expect(response.status).toBe(201);
      const copy = response.body;
      expect(copy.id).not.toBe(original.id);
      expect(copy).toMatchObject({
        environment: 'production',
        version: 1,
        userId: user.id,
        title: 'Edited once',
      });
      for (const member of [
        'fields',
        'ui',
        'storage',
        'logic',
        'retention',
        'notifications',
        'autoResponse',
      ] as const) {
        expect(copy[member]).toEqual(read.body[member]);
      }
      expect(copy.createdAt).not.toBe(read.body.createdAt);
      expect((await get(`/forms/${original.id}`, user.token)).body).toEqual(read.body);
      const production = await get<FormPage>('/forms?environment=production', user.token);
      expect(production.body.data.map((f) => f.id)).toEqual([copy.id]);
    });

    it('cannot move a form by PUT: immutable_member', async () => {
      const user = await signup(t);
      const original = await createForm(t, user.token);
      expectProblem(
        await put(original.id, { environment: 'production' }, user.token),
        400,
        'immutable_member',
      );
    });
  });
});
