import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { CATALOGUES, SHIPPED_LANGUAGES, wordsFor } from '../../shared/i18n/catalogues.js';
import { en } from '../../shared/i18n/en.js';

/**
 * API.md §13 on the hosted page, without JavaScript: the language chosen (?lang=, then
 * Accept-Language, then the form's own), kept through steps, errors and the thank-you page, in
 * Intake's own words; links to the other languages, hreflang alternates, lang and dir.
 */

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true, minLength: 2 },
  { id: 'topic', type: 'select', label: 'Topic', required: true, options: ['sales', 'support'] },
  { id: 'agree', type: 'checkbox', label: 'I agree', required: true },
];

const TRANSLATIONS = {
  de: {
    title: 'Kontakt',
    fields: {
      name: { label: 'Ihr Name' },
      topic: { label: 'Thema', options: { sales: 'Vertrieb', support: 'Hilfe' } },
      agree: { label: 'Ich stimme zu' },
    },
  },
  ar: {
    title: 'اتصل بنا',
    fields: {
      name: { label: 'اسمك' },
      topic: { label: 'الموضوع', options: { sales: 'المبيعات', support: 'الدعم' } },
      agree: { label: 'أوافق' },
    },
  },
};

const documentOf = (html: string) => {
  const window = new Window();
  window.document.write(html);
  return window.document as unknown as Document;
};

/** Every text a person meets on the page: its text nodes and the attributes read out. */
function textsOf(document: Document): string[] {
  const texts: string[] = [document.title];
  const walker = document.createTreeWalker(document.body, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (text) texts.push(text);
  }
  for (const element of Array.from(document.querySelectorAll('[aria-label],[title],[placeholder]'))) {
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts;
}

/** The English catalogue's words (those without placeholders) found on a page in `lang`, where its own differ. */
function englishLeft(document: Document, lang: keyof typeof CATALOGUES): string[] {
  const own = CATALOGUES[lang] ?? {};
  const english = Object.entries(en)
    .filter(([id, text]) => !text.includes('{') && own[id as keyof typeof own] !== text)
    .map(([, text]) => text.replace(/[.…]$/, ''));
  return textsOf(document).filter((text) =>
    english.some((word) => text === word || text.startsWith(`${word} `) || text.includes(`${word}.`)),
  );
}

describe('the hosted page in the respondent’s language (API.md §13)', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t);
  });
  afterAll(() => t.close());

  const form = (ui: Record<string, unknown> = {}, translations: Record<string, unknown> = TRANSLATIONS) =>
    createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic', ...ui },
      translations,
    });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url, headers });
  const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url,
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const hidden = (page: Response) => {
    const document = documentOf(page.text);
    const out: Record<string, string> = {};
    for (const input of Array.from(document.querySelectorAll<HTMLInputElement>('input[type=hidden]')))
      if (input.name.startsWith('_')) out[input.name] = input.value;
    return { out, document };
  };

  it('shows ?lang= with its texts and Intake’s own words, lang on <html>, links and alternates', async () => {
    const { id } = await form();
    const page = await get(`/f/${id}?lang=de`);
    expect(page.status).toBe(200);
    const document = documentOf(page.text);
    expect(document.documentElement.getAttribute('lang')).toBe('de');
    expect(document.documentElement.getAttribute('dir')).toBe('ltr');
    expect(document.querySelector('h1')?.textContent).toBe('Kontakt');
    expect(document.querySelector('label[for="field-name"]')?.textContent).toContain('Ihr Name');
    expect(document.querySelector('button[type=submit]')?.textContent).toBe('Absenden');
    expect(document.querySelector('.form__legend')?.textContent).toContain('Pflichtfeld');
    expect(document.querySelector('form.form')?.getAttribute('action')).toBe(`/f/${id}?lang=de`);
    const links = Array.from(document.querySelectorAll('nav.languages a')).map((a) => [
      a.getAttribute('hreflang'),
      a.getAttribute('href'),
      a.textContent,
    ]);
    expect(links).toEqual([
      ['en', `/f/${id}?lang=en`, 'English'],
      ['ar', `/f/${id}?lang=ar`, 'العربية'],
    ]);
    expect(document.querySelector('nav.languages')?.getAttribute('aria-label')).toBe('Sprachen');
    const alternates = Array.from(document.querySelectorAll('link[rel=alternate]')).map((link) =>
      link.getAttribute('hreflang'),
    );
    expect(alternates).toEqual(['en', 'ar']);
    expect(englishLeft(document, 'de')).toEqual([]);
  });

  it('takes Accept-Language when there is no ?lang=, and writes Arabic right to left', async () => {
    const { id } = await form();
    const page = await get(`/f/${id}`, { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.5' });
    const document = documentOf(page.text);
    expect(document.documentElement.getAttribute('lang')).toBe('ar');
    expect(document.documentElement.getAttribute('dir')).toBe('rtl');
    expect(document.querySelector('button[type=submit]')?.textContent).toBe('إرسال');
    expect(englishLeft(document, 'ar')).toEqual([]);
  });

  it.each([
    ['an invalid tag', '?lang=xx-invalid'],
    ['a language the form lacks', '?lang=ja'],
    ['an empty one', '?lang='],
  ])('shows the form’s own language for %s', async (_, query) => {
    const { id } = await form();
    const page = await get(`/f/${id}${query}`);
    expect(page.status).toBe(200);
    const document = documentOf(page.text);
    expect(document.documentElement.getAttribute('lang')).toBe('en');
    expect(document.querySelector('h1')?.textContent).toBe('Contact us');
  });

  it('survives an Accept-Language of 200 entries and bad q-values', async () => {
    const { id } = await form();
    const header = [
      ...Array.from({ length: 200 }, (_, i) => `zz-a${i};q=0.${i % 9}`),
      'de;q=5',
      'ar;q=-1',
    ].join(', ');
    const page = await get(`/f/${id}`, { 'accept-language': header });
    expect(page.status).toBe(200);
    expect(documentOf(page.text).documentElement.getAttribute('lang')).toBe('en');
  });

  it('answers a refused post in the page’s language, every word of Intake’s in it', async () => {
    const { id } = await form();
    const first = hidden(await get(`/f/${id}?lang=de`));
    const page = await post(`/f/${id}?lang=de`, { ...first.out, name: 'A' });
    expect(page.status).toBe(400);
    const document = documentOf(page.text);
    expect(document.documentElement.getAttribute('lang')).toBe('de');
    expect(document.title).toBe('Fehler: Kontakt');
    expect(document.querySelector('.error-summary__title')?.textContent).toBe('Es gibt ein Problem');
    const items = Array.from(document.querySelectorAll('.error-summary__list li')).map(
      (li) => li.textContent,
    );
    expect(items).toEqual([
      'Ihr Name: Geben Sie mindestens 2 Zeichen ein.',
      'Thema: Wählen Sie eine Antwort.',
      'Ich stimme zu: Setzen Sie hier ein Häkchen, um fortzufahren.',
    ]);
    expect(document.querySelector('#error-name')?.textContent).toBe(
      'Fehler: Geben Sie mindestens 2 Zeichen ein.',
    );
    expect(englishLeft(document, 'de')).toEqual([]);
    // no links to other languages once answers are on the page: a link would start afresh
    expect(document.querySelector('nav.languages')).toBeNull();
  });

  it('keeps the language through the steps of a one-by-one form to the thank-you page', async () => {
    const { id } = await form({ layout: 'one-by-one' });
    const first = hidden(await get(`/f/${id}`, { 'accept-language': 'ar' }));
    expect(first.document.querySelector('form.form')?.getAttribute('action')).toBe(`/f/${id}?lang=ar`);
    expect(first.document.querySelector('.progress')?.textContent).toBe(
      wordsFor('ar').say('questionOf', { n: 1, m: 3 }),
    );
    // the page's next posts carry ?lang= in their address, whatever the browser sends
    let page = await post(`/f/${id}?lang=ar`, {
      ...first.out,
      _question: 'name',
      _action: 'next',
      name: 'Ada',
    });
    let step = hidden(page);
    expect(step.document.documentElement.getAttribute('dir')).toBe('rtl');
    expect(step.document.querySelector('button[value=back]')?.textContent).toBe('السابق');
    page = await post(`/f/${id}?lang=ar`, { ...step.out, _question: 'topic', _action: 'next', name: 'Ada' });
    expect(page.status).toBe(400);
    step = hidden(page);
    expect(step.document.querySelector('.error-summary__title')?.textContent).toBe('توجد مشكلة');
    expect(englishLeft(step.document, 'ar')).toEqual([]);
    page = await post(`/f/${id}?lang=ar`, {
      ...step.out,
      _question: 'topic',
      _action: 'next',
      name: 'Ada',
      topic: 'sales',
    });
    step = hidden(page);
    page = await post(`/f/${id}?lang=ar`, {
      ...step.out,
      _question: 'agree',
      _action: 'submit',
      name: 'Ada',
      topic: 'sales',
      agree: 'on',
    });
    expect(page.status).toBe(200);
    const done = documentOf(page.text);
    expect(done.documentElement.getAttribute('lang')).toBe('ar');
    expect(done.documentElement.getAttribute('dir')).toBe('rtl');
    expect(done.querySelector('h1')?.textContent).toBe('شكرًا لك');
    expect(englishLeft(done, 'ar')).toEqual([]);
  });

  /** Every page a respondent meets, in `lang`: none may hold a word of Intake's in English. */
  it.each(SHIPPED_LANGUAGES.filter((lang) => lang !== 'en'))(
    'speaks %s on every page of both layouts, errors and thanks included, without an English word of Intake’s',
    async (lang) => {
      const pages: Array<{ name: string; status: number; document: Document }> = [];
      const seen = (name: string, page: Response) => {
        const entry = { name, status: page.status, document: documentOf(page.text) };
        pages.push(entry);
        return entry;
      };
      const classic = await form({ language: lang }, {});
      const start = hidden(await get(`/f/${classic.id}`));
      seen('classic', await get(`/f/${classic.id}`));
      seen('classic, refused', await post(`/f/${classic.id}`, { ...start.out, name: 'A' }));
      seen(
        'classic, thanks',
        await post(`/f/${classic.id}`, { ...start.out, name: 'Ada', topic: 'sales', agree: 'on' }),
      );

      const steps = await form({ language: lang, layout: 'one-by-one' }, {});
      let step = hidden(await get(`/f/${steps.id}`));
      seen('one-by-one, first', await get(`/f/${steps.id}`));
      const answers = { name: 'Ada' };
      const next = async (question: string, more: Record<string, string>, action = 'next') =>
        post(`/f/${steps.id}`, { ...step.out, _question: question, _action: action, ...answers, ...more });
      step = hidden(await next('name', {}));
      const refused = seen('one-by-one, refused', await next('topic', {}));
      step = hidden(await next('topic', {}));
      expect(refused.status).toBe(400);
      const last = await next('topic', { topic: 'sales' });
      seen('one-by-one, last', last);
      step = hidden(last);
      seen('one-by-one, thanks', await next('agree', { topic: 'sales', agree: 'on' }, 'submit'));

      expect(pages.map((page) => [page.name, page.status])).toEqual([
        ['classic', 200],
        ['classic, refused', 400],
        ['classic, thanks', 200],
        ['one-by-one, first', 200],
        ['one-by-one, refused', 400],
        ['one-by-one, last', 200],
        ['one-by-one, thanks', 200],
      ]);
      const words = wordsFor(lang);
      for (const page of pages) {
        const html = page.document.documentElement;
        expect([page.name, html.getAttribute('lang'), html.getAttribute('dir')]).toEqual([
          page.name,
          lang,
          lang === 'ar' || lang === 'he' ? 'rtl' : 'ltr',
        ]);
        expect([page.name, englishLeft(page.document, lang)]).toEqual([page.name, []]);
      }
      const summaryOf = (name: string) =>
        pages.find((page) => page.name === name)?.document.querySelector('.error-summary__title')
          ?.textContent;
      expect(summaryOf('classic, refused')).toBe(words.say('errorSummaryTitle'));
      expect(summaryOf('one-by-one, refused')).toBe(words.say('errorSummaryTitle'));
    },
  );

  it('escapes HTML and scripts in a translation like any other text', async () => {
    const { id } = await form(
      {},
      { de: { title: '<script>alert(1)</script>', fields: { name: { label: '<b>x</b>' } } } },
    );
    const page = await get(`/f/${id}?lang=de`);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).not.toContain('<b>x</b>');
    expect(documentOf(page.text).querySelector('h1')?.textContent).toBe('<script>alert(1)</script>');
  });

  it('gives a right-to-left label in a left-to-right form a direction of its own', async () => {
    const user2 = await signup(t);
    const { id } = await createForm(t, user2.token, {
      status: 'live',
      ui: { layout: 'classic' },
      fields: [{ id: 'name', type: 'text', label: 'الاسم الكامل' }],
    });
    const document = documentOf((await get(`/f/${id}`)).text);
    expect(document.documentElement.getAttribute('dir')).toBe('ltr');
    expect(document.querySelector('label[for="field-name"]')?.getAttribute('dir')).toBe('auto');
  });

  it('shows the 404 page in the best of Intake’s languages', async () => {
    const page = await get('/f/no-such-form', { 'accept-language': 'ja' });
    expect(page.status).toBe(404);
    const document = documentOf(page.text);
    expect(document.documentElement.getAttribute('lang')).toBe('ja');
    expect(document.querySelector('h1')?.textContent).toBe('ページが見つかりません');
    const hebrew = documentOf((await get('/f/no-such-form?lang=he')).text);
    expect(hebrew.documentElement.getAttribute('dir')).toBe('rtl');
  });

  it('hands the page script only its page’s language', async () => {
    const { id } = await form();
    const page = await get(`/f/${id}?lang=de`);
    const data = JSON.parse(
      documentOf(page.text).querySelector('form.form')?.getAttribute('data-words') ?? '{}',
    );
    expect(data.lang).toBe('de');
    expect(data.messages.required).toBe(CATALOGUES.de?.required);
    expect(page.text).not.toContain(en.required);
    expect(page.text).not.toContain(CATALOGUES.fr?.required);
  });
});

describe('the JSON API’s localizedMessage (API.md §13)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const submit = async (headers: Record<string, string>, query = '') => {
    const user = await signup(t);
    const { id } = await createForm(t, user.token, { status: 'live', fields: FIELDS });
    return t.request({
      method: 'POST',
      url: `/forms/${id}/submit${query}`,
      body: { answers: { name: 'A' } },
      headers,
    });
  };

  it('keeps the English message and code, and adds the message in Accept-Language', async () => {
    const response = await submit({ 'accept-language': 'de-CH, en;q=0.5' });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        field: 'name',
        code: 'min_length',
        message: 'Enter at least 2 characters',
        localizedMessage: 'Geben Sie mindestens 2 Zeichen ein',
      },
      {
        field: 'topic',
        code: 'required',
        message: 'Choose an answer',
        localizedMessage: 'Wählen Sie eine Antwort',
      },
      {
        field: 'agree',
        code: 'required',
        message: 'Tick this box to continue',
        localizedMessage: 'Setzen Sie hier ein Häkchen, um fortzufahren',
      },
    ]);
  });

  it.each(Object.keys(CATALOGUES))('says it in %s with ?lang=', async (lang) => {
    const response = await submit({}, `?lang=${lang}`);
    const catalogue = CATALOGUES[lang];
    expect(response.body.errors[1]).toMatchObject({
      message: 'Choose an answer',
      localizedMessage: catalogue?.requiredChoice,
    });
  });

  it('adds nothing without Accept-Language or ?lang=, and English for a language Intake does not speak', async () => {
    expect((await submit({})).body.errors[0]).not.toHaveProperty('localizedMessage');
    expect((await submit({ 'accept-language': 'ko' })).body.errors[0].localizedMessage).toBe(
      'Enter at least 2 characters',
    );
  });
});
