import { describe, expect, it } from 'vitest';
import type { FieldInput } from '../model.js';
import {
  canonicalTag,
  languageName,
  missingCount,
  type OwnTexts,
  parseTranslationsFile,
  prunedTranslations,
  renameFieldTexts,
  textAt,
  translatableTexts,
  translatedPage,
  whereIn,
  withText,
} from './model.js';

const fields: FieldInput[] = [
  { id: 'name', type: 'text', label: 'Your name', help: 'As on your badge' },
  { id: 'day', type: 'select', label: 'Which day', options: [{ value: 'fri', label: 'Friday' }, 'Sunday'] },
  { id: 'ref', type: 'hidden', label: 'Referrer' },
];
const form: OwnTexts = {
  title: 'Summer party',
  ui: { description: 'Come along', submitLabel: '' },
  fields,
  closedMessage: 'Full',
  autoResponse: { enabled: false, subject: 'Thanks', body: 'See you' },
};

describe('translatableTexts', () => {
  it('lists the title and labels always, other texts when the form has them, no hidden field', () => {
    expect(translatableTexts(form).map((text) => text.path.join('.'))).toEqual([
      'title',
      'description',
      'closedMessage',
      'fields.name.label',
      'fields.name.help',
      'fields.day.label',
      'fields.day.options.fri',
      'fields.day.options.Sunday',
    ]);
  });
  it('adds the automatic reply when it is on', () => {
    const paths = translatableTexts({
      ...form,
      autoResponse: { enabled: true, subject: 'Thanks', body: 'See you' },
    }).map((text) => text.path.join('.'));
    expect(paths).toContain('autoResponse.subject');
    expect(paths).toContain('autoResponse.body');
  });
  it('gives each its own text', () => {
    const option = translatableTexts(form).find((text) => text.path.join('.') === 'fields.day.options.fri');
    expect(option).toMatchObject({ own: 'Friday', what: '“Which day”: option “Friday”' });
  });
});

describe('textAt, withText, missingCount', () => {
  it('sets and reads a text at its path, blank leaving it (and what it empties) out', () => {
    const one = withText({}, ['fields', 'name', 'label'], 'Ihr Name');
    expect(one).toEqual({ fields: { name: { label: 'Ihr Name' } } });
    expect(textAt(one, ['fields', 'name', 'label'])).toBe('Ihr Name');
    expect(textAt(one, ['title'])).toBe('');
    const two = withText(one, ['fields', 'day', 'options', 'fri'], 'Freitag');
    expect(two.fields?.day).toEqual({ options: { fri: 'Freitag' } });
    expect(withText(two, ['fields', 'name', 'label'], ' ')).toEqual({
      fields: { day: { options: { fri: 'Freitag' } } },
    });
    expect(
      withText(withText(two, ['fields', 'name', 'label'], ''), ['fields', 'day', 'options', 'fri'], ''),
    ).toEqual({});
  });
  it('counts what a language lacks', () => {
    const texts = translatableTexts(form);
    expect(missingCount(undefined, texts)).toBe(8);
    expect(missingCount({ title: 'Sommerfest', fields: { name: { label: 'Ihr Name' } } }, texts)).toBe(6);
    expect(missingCount({ title: '  ' }, texts)).toBe(8);
  });
});

describe('canonicalTag', () => {
  it('writes a tag as Intl does, and refuses what is none', () => {
    expect(canonicalTag('de-de')).toBe('de-DE');
    expect(canonicalTag(' PT-br ')).toBe('pt-BR');
    expect(canonicalTag('zh-hans')).toBe('zh-Hans');
    expect(canonicalTag('not a tag')).toBeUndefined();
  });
});

describe('parseTranslationsFile', () => {
  it('takes {tag: Translation}, tags written canonically', () => {
    expect(
      parseTranslationsFile({
        'de-de': { title: 'Sommerfest', fields: { day: { label: 'Tag', options: { fri: 'Freitag' } } } },
      }),
    ).toEqual({
      translations: {
        'de-DE': { title: 'Sommerfest', fields: { day: { label: 'Tag', options: { fri: 'Freitag' } } } },
      },
    });
  });
  it('refuses what is not that shape, saying where', () => {
    expect(parseTranslationsFile([])).toMatchObject({ error: expect.stringMatching(/not a JSON object/) });
    expect(parseTranslationsFile({})).toMatchObject({ error: expect.stringMatching(/no language/) });
    expect(parseTranslationsFile({ 'x y': {} })).toMatchObject({
      error: expect.stringMatching(/not a language tag/),
    });
    expect(parseTranslationsFile({ de: { title: 3 } })).toEqual({ error: 'de: title is not text' });
    expect(parseTranslationsFile({ de: { colour: 'rot' } })).toEqual({
      error: 'de: “colour” is not a text a form has',
    });
    expect(parseTranslationsFile({ de: { fields: { name: { label: 1 } } } })).toEqual({
      error: 'de: fields.name.label is not text',
    });
    expect(parseTranslationsFile({ de: { fields: { day: { options: { fri: {} } } } } })).toEqual({
      error: 'de: fields.day.options.fri is not text',
    });
    expect(parseTranslationsFile({ de: { autoResponse: { to: 'x' } } })).toEqual({
      error: 'de: autoResponse.to is not a text it has',
    });
  });
});

describe('renameFieldTexts', () => {
  it('moves a renamed field’s texts to its new id', () => {
    expect(
      renameFieldTexts(
        { de: { title: 'T', fields: { name: { label: 'Name' } } } },
        new Map([['name', 'full_name']]),
      ),
    ).toEqual({ de: { title: 'T', fields: { full_name: { label: 'Name' } } } });
  });
});

describe('prunedTranslations', () => {
  it('leaves out the texts of fields and options the form no longer has', () => {
    expect(
      prunedTranslations(
        {
          de: {
            title: 'Sommerfest',
            fields: {
              name: { label: 'Name' },
              gone: { label: 'Weg' },
              day: { label: 'Tag', options: { fri: 'Freitag', sat: 'Samstag' } },
            },
          },
          fr: { fields: { gone: { label: 'Parti' } } },
        },
        fields,
      ),
    ).toEqual({
      de: {
        title: 'Sommerfest',
        fields: { name: { label: 'Name' }, day: { label: 'Tag', options: { fri: 'Freitag' } } },
      },
      fr: {},
    });
  });
});

describe('translatedPage', () => {
  it('puts the translation’s texts in the page, keeping the form’s own where it has none', () => {
    const page = translatedPage(
      { title: 'Summer party', ui: { description: 'Come along', submitLabel: 'Send' }, fields },
      {
        title: 'Sommerfest',
        submitLabel: ' ',
        fields: { name: { label: 'Ihr Name' }, day: { options: { Sunday: 'Sonntag' } } },
      },
    );
    expect(page.title).toBe('Sommerfest');
    expect(page.ui).toMatchObject({ description: 'Come along', submitLabel: 'Send' });
    expect(page.fields[0]).toMatchObject({ label: 'Ihr Name', help: 'As on your badge' });
    expect(page.fields[1]?.options).toEqual([
      { value: 'fri', label: 'Friday' },
      { value: 'Sunday', label: 'Sonntag' },
    ]);
  });
});

describe('languageName and whereIn', () => {
  it('names a language in English with its tag, a tag it cannot name as it is', () => {
    expect(languageName('de')).toBe('German (de)');
    expect(languageName('pt-BR')).toBe('Brazilian Portuguese (pt-BR)');
    expect(languageName('x-unknown-thing-here')).toBe('x-unknown-thing-here');
  });
  it('says where a refusal points', () => {
    expect(whereIn('translations.en')).toBe('English (en)');
    expect(whereIn('translations.de.fields.name.label')).toBe('German (de), fields.name.label');
  });
});
