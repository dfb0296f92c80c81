import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { createForm as createAnyForm, signup } from '../../../test/support/factories.js';
import { expectFieldError } from '../../../test/support/forms.js';
import { bestLanguage, parseAcceptLanguage } from '../../shared/i18n/negotiate.js';

/** API.md §13: a form's translations, checked at save and shown by the public view with ?lang=. */

const GERMAN = {
  title: 'Kontakt',
  description: 'Schreiben Sie uns',
  submitLabel: 'Senden',
  fields: {
    name: { label: 'Ihr Name', placeholder: 'Erika Mustermann' },
    topic: { label: 'Thema', options: { sales: 'Vertrieb' } },
  },
};

describe('translations (API.md §13)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const live = async (translations: Record<string, unknown>, ui: Record<string, unknown> = {}) => {
    const user = await signup(t);
    const form = await createAnyForm(t, user.token, {
      status: 'live',
      ui: { description: 'Write to us', ...ui },
      translations,
    });
    return { user, form };
  };
  const publicView = (id: string, query = '', headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: `/v1/forms/${id}/public${query}`, headers });

  it('keeps them with the form, for its owner', async () => {
    const { form } = await live({ de: GERMAN });
    expect(form.translations).toEqual({ de: GERMAN });
  });

  it('shows the public view in ?lang=, each missing text in the form’s own language', async () => {
    const { form } = await live({ de: GERMAN, fr: { title: 'Contactez-nous' } });
    const response = await publicView(form.id, '?lang=de');
    expect(response.status).toBe(200);
    expect(response.body.language).toBe('de');
    expect(response.body.languages).toEqual(['en', 'de', 'fr']);
    expect(response.body.title).toBe('Kontakt');
    expect(response.body.ui.description).toBe('Schreiben Sie uns');
    expect(response.body.ui.submitLabel).toBe('Senden');
    const [name, , topic, message] = response.body.fields;
    expect(name).toMatchObject({ label: 'Ihr Name', placeholder: 'Erika Mustermann' });
    expect(topic.options).toEqual([{ value: 'sales', label: 'Vertrieb' }, 'support']);
    expect(message.label).toBe('Message');
    expect(response.headers.etag).toBe(`"${form.version}-de"`);

    const french = await publicView(form.id, '?lang=fr');
    expect(french.body).toMatchObject({ language: 'fr', title: 'Contactez-nous' });
    expect(french.body.ui.description).toBe('Write to us');
  });

  it.each([
    ['a language the form lacks', '?lang=ja'],
    ['an invalid tag', '?lang=xx-invalid'],
    ['an empty one', '?lang='],
    ['a very long one', `?lang=${'a'.repeat(100)}`],
  ])('shows the form’s own language for %s', async (_, query) => {
    const { form } = await live({ de: GERMAN });
    const response = await publicView(form.id, query);
    expect(response.status).toBe(200);
    expect(response.body.language).toBe('en');
    expect(response.body.title).toBe('Contact us');
  });

  it('refuses a ?lang= longer than a tag can be with 400', async () => {
    const { form } = await live({ de: GERMAN });
    expectProblem(await publicView(form.id, `?lang=${'a'.repeat(101)}`), 400, 'invalid_parameter');
  });

  it('takes the best match of Accept-Language when there is no ?lang=, and says it varies', async () => {
    const { form } = await live({ de: GERMAN, 'pt-BR': { title: 'Contato' } });
    const german = await publicView(form.id, '', { 'accept-language': 'fr-CH, de-AT;q=0.9, en;q=0.8' });
    expect(german.body.language).toBe('de');
    expect(german.headers.vary).toContain('Accept-Language');
    const portuguese = await publicView(form.id, '', { 'accept-language': 'pt' });
    expect(portuguese.body.language).toBe('pt-BR');
    const lang = await publicView(form.id, '?lang=de', { 'accept-language': 'pt' });
    expect(lang.body.language).toBe('de');
  });

  it('reads a huge or broken Accept-Language without failing', async () => {
    const { form } = await live({ de: GERMAN });
    const huge = Array.from({ length: 200 }, (_, i) => `x${i % 10}-a${i};q=0.${i % 9}`).join(', ');
    for (const header of [huge, `${huge}, de`, 'de;q=7, en;q=-1', 'de;q=abc', ';;;,,,', 'de;q=0', '*']) {
      const response = await publicView(form.id, '', { 'accept-language': header });
      expect(response.status, header).toBe(200);
      expect(response.body.language, header).toBe(header === '*' ? 'en' : 'en');
    }
  });

  it('uses ui.language as the form’s own language', async () => {
    const { form } = await live({ en: { title: 'Contact' } }, { language: 'de' });
    const response = await publicView(form.id, '?lang=en');
    expect(response.body).toMatchObject({ language: 'en', languages: ['de', 'en'], title: 'Contact' });
  });

  describe('refuses with 400 invalid_form at save', () => {
    const refused = async (translations: unknown, field: string, code: string, ui = {}) => {
      const user = await signup(t);
      const response = await t.request({
        method: 'POST',
        url: '/forms',
        auth: user.token,
        body: {
          title: 'Contact us',
          environment: 'development',
          ui,
          fields: [
            { id: 'name', type: 'text', label: 'Name' },
            {
              id: 'topic',
              type: 'select',
              label: 'Topic',
              options: ['sales', { value: 'support', label: 'Help' }],
            },
          ],
          translations,
        },
      });
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, field, code);
      return response;
    };

    it('an unknown field', async () => {
      const response = await refused(
        { de: { fields: { nope: { label: 'X' } } } },
        'translations.de.fields.nope',
        'unknown_field',
      );
      expect(response.body.errors[0].message).toContain('nope');
    });
    it('an unknown option', () =>
      refused(
        { de: { fields: { topic: { options: { other: 'X' } } } } },
        'translations.de.fields.topic.options.other',
        'unknown_option',
      ));
    it('options for a field without any', () =>
      refused(
        { de: { fields: { name: { options: { a: 'X' } } } } },
        'translations.de.fields.name.options',
        'unknown_option',
      ));
    it('an invalid tag', () =>
      refused({ 'xx-invalid-': { title: 'X' } }, 'translations.xx-invalid-', 'invalid_language'));
    it('a tag not written the canonical way', async () => {
      const response = await refused({ 'de-de': { title: 'X' } }, 'translations.de-de', 'invalid_language');
      expect(response.body.errors[0].message).toContain('de-DE');
    });
    it('the form’s own language', () =>
      refused({ de: { title: 'X' } }, 'translations.de', 'invalid_language', { language: 'de' }));
    it('a member translations do not have', () =>
      refused({ de: { colour: 'rot' } }, 'translations.de.colour', 'unknown_member'));
  });
});

describe('Accept-Language, read defensively', () => {
  it('orders ranges by q, skipping bad q-values and q=0', () => {
    expect(parseAcceptLanguage('de;q=0.5, fr, en;q=2, it;q=0, es;q=0.9, pt;q=x')).toEqual([
      { range: 'fr', q: 1 },
      { range: 'es', q: 0.9 },
      { range: 'de', q: 0.5 },
    ]);
  });
  it('reads at most 50 ranges of at most 4 kB', () => {
    const header = Array.from({ length: 200 }, (_, i) => `x-a${i}`).join(',');
    expect(parseAcceptLanguage(header)).toHaveLength(50);
    expect(parseAcceptLanguage('a'.repeat(100_000))).toEqual([]);
  });
  it('matches a region to its language and a language to a region', () => {
    expect(bestLanguage(['en', 'de'], 'de-AT')).toBe('de');
    expect(bestLanguage(['en', 'pt-BR'], 'pt')).toBe('pt-BR');
    expect(bestLanguage(['en', 'zh-Hans'], 'zh-hans-cn')).toBe('zh-Hans');
    expect(bestLanguage(['en', 'de'], 'ja')).toBeUndefined();
  });
});
