import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import {
  CATALOGUES,
  catalogueLanguageOf,
  SHIPPED_LANGUAGES,
  scriptMessagesFor,
  wordsFor,
} from './catalogues.js';
import { en } from './en.js';
import { formatMessage } from './format.js';
import { LOADED_LANGUAGES, loadWords } from './loaders.js';
import { directionOf, type MessageId } from './words.js';

/** The placeholders a message uses, read from its parsed form (plural branches included). */
function placeholders(elements: readonly MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.argument || element.type === TYPE.number) into.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.add(`${element.value} (${element.type === TYPE.plural ? 'plural' : 'select'})`);
      for (const option of Object.values(element.options)) placeholders(option.value, into);
    }
  }
  return into;
}

const ids = Object.keys(en) as MessageId[];

/** Values for every placeholder: counts that reach each plural category, a name, a size. */
const SAMPLES = [0, 1, 2, 3, 5, 11, 22, 100, 1234.5, 1000000].map((n) => ({
  minLength: n,
  maxLength: n,
  maxFiles: n,
  min: n,
  max: n,
  n,
  m: n + 1,
  answered: n,
  shown: n,
  count: n,
  name: 'cv.pdf',
  address: 'ada@example.com',
  size: '10 MB',
  accept: 'PDF',
  options: 'a, b',
  value: 'c',
  label: 'Name',
  message: 'Enter a number',
  text: 'Enter a number',
  title: 'Survey',
  url: 'https://example.com',
  brand: 'Intake',
  limits: 'One file',
  types: 'PDF',
  type: 'ZIP',
  id: 'req-1',
  method: 'PUT',
}));

describe('the catalogue of Intake’s own words', () => {
  it('ships the languages API.md §13 lists', () => {
    expect([...SHIPPED_LANGUAGES].sort()).toEqual(
      ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'tr', 'uk', 'ar', 'he', 'ja', 'zh-Hans'].sort(),
    );
    // the list the builder offers (shipped.ts, without the catalogues) is the catalogues' own
    expect(SHIPPED_LANGUAGES).toEqual(Object.keys(CATALOGUES));
  });

  it('loads each shipped language alone for the builder’s preview, saying what the server says', async () => {
    expect(LOADED_LANGUAGES).toEqual(SHIPPED_LANGUAGES.filter((lang) => lang !== 'en'));
    for (const lang of [...SHIPPED_LANGUAGES, 'de-AT', 'ko']) {
      const { words, scriptWords } = await loadWords(lang);
      expect([lang, words.say('next'), words.dir]).toEqual([
        lang,
        wordsFor(lang).say('next'),
        wordsFor(lang).dir,
      ]);
      expect(JSON.parse(scriptWords)).toEqual({ lang, messages: scriptMessagesFor(lang) });
    }
  });

  describe.each(SHIPPED_LANGUAGES)('%s', (lang) => {
    const catalogue = CATALOGUES[lang] ?? {};

    it('has every message, and no other', () => {
      expect(Object.keys(catalogue).sort()).toEqual([...ids].sort());
      for (const id of ids) expect(catalogue[id as keyof typeof catalogue], id).toMatch(/\S/);
    });

    it.each(ids)('%s parses and keeps every placeholder of the English', (id) => {
      const text = catalogue[id as keyof typeof catalogue];
      expect([...placeholders(parse(text))].sort()).toEqual([...placeholders(parse(en[id]))].sort());
    });

    it('says each message as intl-messageformat does, for counts of every plural category', () => {
      for (const id of ids) {
        const text = catalogue[id as keyof typeof catalogue];
        const reference = new IntlMessageFormat(text, lang);
        for (const values of SAMPLES) {
          expect(formatMessage(lang, text, values), `${lang} ${id} ${values.n}`).toBe(
            String(reference.format(values)),
          );
        }
      }
    });

    it('leaves no English word where a translation is due (every page word differs from English, names aside)', () => {
      if (lang === 'en') return;
      const same = ids.filter(
        (id) =>
          catalogue[id as keyof typeof catalogue] === en[id] &&
          !/^\{[^}]*\}[^a-z]*\{?[^}]*\}?\.?$/i.test(en[id]),
      );
      // words that are the same in both (Video, Audio, "Question" in French) are listed here by language
      const alike: Record<string, string[]> = {
        fr: ['questionOf', 'kindImages'],
        it: ['kindAudio', 'passwordLabel'],
        es: ['kindAudio', 'errorPrefix', 'errorTitle'],
        nl: ['kindAudio'],
      };
      expect(same.filter((id) => !(alike[lang] ?? []).includes(id))).toEqual([]);
    });
  });

  it('finds the catalogue of a regional or scripted tag, and none for a language it does not speak', () => {
    expect(catalogueLanguageOf('de-AT')).toBe('de');
    expect(catalogueLanguageOf('pt-BR')).toBe('pt');
    expect(catalogueLanguageOf('zh-CN')).toBe('zh-Hans');
    expect(catalogueLanguageOf('zh-TW')).toBeUndefined();
    expect(catalogueLanguageOf('ko')).toBeUndefined();
    expect(catalogueLanguageOf('xx-invalid-')).toBeUndefined();
  });

  it('falls back to English words, with English plural rules, for other languages', () => {
    const words = wordsFor('ko');
    expect(words.lang).toBe('ko');
    expect(words.say('tooShort', { minLength: 1 })).toBe('Enter at least 1 character');
    expect(words.say('submit')).toBe('Submit');
  });

  it('writes numbers the language’s way', () => {
    expect(wordsFor('de').say('belowMinimum', { min: 1234.5 })).toBe(
      'Geben Sie eine Zahl ein, die mindestens 1.234,5 ist',
    );
    expect(wordsFor('pl').say('tooShort', { minLength: 5 })).toBe('Wpisz co najmniej 5 znaków');
    expect(wordsFor('pl').say('tooShort', { minLength: 2 })).toBe('Wpisz co najmniej 2 znaki');
  });

  it('knows which languages are written right to left', () => {
    expect(['ar', 'he', 'fa', 'ar-EG', 'ur'].map(directionOf)).toEqual(['rtl', 'rtl', 'rtl', 'rtl', 'rtl']);
    expect(['en', 'de', 'ja', 'zh-Hans', 'tr'].map(directionOf)).toEqual(['ltr', 'ltr', 'ltr', 'ltr', 'ltr']);
  });
});
