import type { FieldTranslation, Translation, Translations } from '../../../../../shared/form.js';
import type { FieldInput, Ui } from '../model.js';

/**
 * The builder's translations (API.md §13), pure: the texts of a form a language can translate,
 * each beside its text in the form's own language; how many a language still lacks; a tag
 * written as the server writes it; and a file of translations checked for shape before it is
 * taken (the server still judges it on save).
 */

/** Where a text sits in a Translation: `['title']`, `['fields', 'name', 'label']`, `['fields', 'day', 'options', 'fri']`. */
export type TextPath = readonly string[];

export interface TranslatableText {
  path: TextPath;
  /** What it is, for its label: "Title", "“Your name”: help". */
  what: string;
  /** The text in the form's own language. */
  own: string;
  multiline: boolean;
}

/** What the form's own texts are read from. */
export interface OwnTexts {
  title: string;
  ui: Ui;
  fields: readonly FieldInput[];
  closedMessage?: string;
  autoResponse?: { enabled: boolean; subject: string; body: string };
}

const set = (text: string | undefined): text is string => typeof text === 'string' && text.trim() !== '';

/** Every text of the form a translation can give: the title and each field's label always, the others when the form has them. */
export function translatableTexts(form: OwnTexts): TranslatableText[] {
  const texts: TranslatableText[] = [{ path: ['title'], what: 'Title', own: form.title, multiline: false }];
  const add = (path: TextPath, what: string, own: string | undefined, multiline = false) => {
    if (set(own)) texts.push({ path, what, own, multiline });
  };
  add(['description'], 'Description', form.ui.description, true);
  add(['submitLabel'], 'Submit button', form.ui.submitLabel);
  add(['successMessage'], 'Thank-you message', form.ui.successMessage, true);
  add(['closedMessage'], 'Closed message', form.closedMessage, true);
  if (form.autoResponse?.enabled) {
    add(['autoResponse', 'subject'], 'Automatic reply: subject', form.autoResponse.subject);
    add(['autoResponse', 'body'], 'Automatic reply: body', form.autoResponse.body, true);
  }
  for (const field of form.fields) {
    if (field.type === 'hidden') continue;
    const name = `“${field.label || field.id}”`;
    texts.push({
      path: ['fields', field.id, 'label'],
      what: `${name}: label`,
      own: field.label,
      multiline: false,
    });
    add(['fields', field.id, 'help'], `${name}: help`, field.help, true);
    add(['fields', field.id, 'placeholder'], `${name}: placeholder`, field.placeholder);
    for (const option of field.options ?? []) {
      const value = typeof option === 'string' ? option : option.value;
      const label = typeof option === 'string' ? option : (option.label ?? option.value);
      add(['fields', field.id, 'options', value], `${name}: option “${label}”`, label);
    }
  }
  return texts;
}

/** The text a translation gives at `path` ('' when none). */
export function textAt(translation: Translation | undefined, path: TextPath): string {
  let at: unknown = translation;
  for (const key of path)
    at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === 'string' ? at : '';
}

/** A translation with `text` at `path`; a blank text is left out (it shows the form's own), and so is what it leaves empty. */
export function withText(translation: Translation, path: TextPath, text: string): Translation {
  const put = (node: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> => {
    const [key, ...rest] = keys;
    if (key === undefined) return node;
    const next = { ...node };
    if (rest.length === 0) {
      if (text.trim() === '') delete next[key];
      else next[key] = text;
    } else {
      const child = put((next[key] as Record<string, unknown> | undefined) ?? {}, rest);
      if (Object.keys(child).length === 0) delete next[key];
      else next[key] = child;
    }
    return next;
  };
  // the nodes built are Translation's own members, by the paths translatableTexts gives
  return put(translation as Record<string, unknown>, path) as Translation;
}

/** How many of the form's texts a translation lacks. */
export const missingCount = (
  translation: Translation | undefined,
  texts: readonly TranslatableText[],
): number => texts.filter((text) => textAt(translation, text.path).trim() === '').length;

/** A tag as the server writes it (`Intl.getCanonicalLocales`: de-de → de-DE), or undefined when it is none. */
export function canonicalTag(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag.trim())[0];
  } catch {
    return undefined;
  }
}

/**
 * A translations file as read (`{tag: Translation}`), checked for shape: an object of tags
 * (written canonically) each an object of the members Translation has, their texts strings.
 * What fits the form (its fields, its options) is the server's to judge on save.
 */
export function parseTranslationsFile(json: unknown): { translations: Translations } | { error: string } {
  if (!isObject(json)) return { error: 'The file is not a JSON object of languages ({"de": {…}}).' };
  const translations: Translations = {};
  for (const [tag, value] of Object.entries(json)) {
    const canonical = canonicalTag(tag);
    if (!canonical) return { error: `“${tag}” is not a language tag (such as de, pt-BR).` };
    const problem = translationProblem(value);
    if (problem) return { error: `${canonical}: ${problem}` };
    translations[canonical] = value as Translation;
  }
  if (Object.keys(translations).length === 0) return { error: 'The file has no language in it.' };
  return { translations };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const TEXTS = ['title', 'description', 'submitLabel', 'successMessage', 'closedMessage'];
const FIELD_TEXTS = ['label', 'help', 'placeholder'];

function translationProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'is not an object of texts';
  for (const [key, member] of Object.entries(value)) {
    if (TEXTS.includes(key)) {
      if (typeof member !== 'string') return `${key} is not text`;
    } else if (key === 'autoResponse') {
      if (!isObject(member)) return 'autoResponse is not an object';
      for (const [part, text] of Object.entries(member))
        if (!['subject', 'body'].includes(part) || typeof text !== 'string')
          return `autoResponse.${part} is not a text it has`;
    } else if (key === 'fields') {
      if (!isObject(member)) return 'fields is not an object of fields';
      for (const [id, field] of Object.entries(member)) {
        const problem = fieldProblem(field);
        if (problem) return `fields.${id}${problem}`;
      }
    } else return `“${key}” is not a text a form has`;
  }
  return undefined;
}

function fieldProblem(field: unknown): string | undefined {
  if (!isObject(field)) return ' is not an object of texts';
  for (const [key, member] of Object.entries(field)) {
    if (FIELD_TEXTS.includes(key)) {
      if (typeof member !== 'string') return `.${key} is not text`;
    } else if (key === 'options') {
      if (!isObject(member)) return '.options is not an object of labels';
      for (const [value, label] of Object.entries(member))
        if (typeof label !== 'string') return `.options.${value} is not text`;
    } else return `: “${key}” is not a text a field has`;
  }
  return undefined;
}

/** A field's translation renamed with it (withFields): its texts follow the new id. */
export function renameFieldTexts(
  translations: Translations,
  renamed: ReadonlyMap<string, string>,
): Translations {
  if (renamed.size === 0) return translations;
  return Object.fromEntries(
    Object.entries(translations).map(([tag, translation]) => [
      tag,
      translation.fields
        ? {
            ...translation,
            fields: Object.fromEntries(
              Object.entries(translation.fields).map(([id, texts]): [string, FieldTranslation] => [
                renamed.get(id) ?? id,
                texts,
              ]),
            ),
          }
        : translation,
    ]),
  );
}

/**
 * Translations as a save sends them: the texts of fields and options the form no longer has are
 * left out (the server refuses them: a field removed in the builder takes its texts along).
 */
export function prunedTranslations(translations: Translations, fields: readonly FieldInput[]): Translations {
  const byId = new Map(fields.map((field) => [field.id, field]));
  const valuesOf = (field: FieldInput) =>
    (field.options ?? []).map((option) => (typeof option === 'string' ? option : option.value));
  return Object.fromEntries(
    Object.entries(translations).map(([tag, translation]) => {
      if (!translation.fields) return [tag, translation];
      const kept = Object.entries(translation.fields).flatMap(([id, texts]): [string, FieldTranslation][] => {
        const field = byId.get(id);
        if (!field) return [];
        if (!texts.options) return [[id, texts]];
        const values = valuesOf(field);
        const options = Object.fromEntries(
          Object.entries(texts.options).filter(([value]) => values.includes(value)),
        );
        const { options: _all, ...rest } = texts;
        return [[id, Object.keys(options).length > 0 ? { ...rest, options } : rest]];
      });
      const { fields: _fields, ...rest } = translation;
      return [tag, kept.length > 0 ? { ...rest, fields: Object.fromEntries(kept) } : rest];
    }),
  );
}

const shown = (translated: string | undefined, own: string | undefined) =>
  translated?.trim() ? translated : own;

/**
 * A form's page in one of its languages, for the builder's preview: each text the translation
 * gives replaces the form's own, the others stay (as the server's public view in `?lang=`).
 */
export function translatedPage<
  F extends { title: string; ui: Ui; fields: ReadonlyArray<Omit<FieldInput, 'pii' | 'piiMode'>> },
>(form: F, translation: Translation | undefined): F {
  if (!translation) return form;
  const ui: Ui = { ...form.ui };
  for (const key of ['description', 'submitLabel', 'successMessage'] as const) {
    const text = shown(translation[key], form.ui[key]);
    if (text !== undefined) ui[key] = text;
  }
  return {
    ...form,
    title: shown(translation.title, form.title) ?? form.title,
    ui,
    fields: form.fields.map((field) => {
      const texts = translation.fields?.[field.id];
      if (!texts) return field;
      const help = shown(texts.help, field.help);
      const placeholder = shown(texts.placeholder, field.placeholder);
      return {
        ...field,
        label: shown(texts.label, field.label) ?? field.label,
        ...(help !== undefined ? { help } : {}),
        ...(placeholder !== undefined ? { placeholder } : {}),
        ...(field.options
          ? {
              options: field.options.map((option) => {
                const value = typeof option === 'string' ? option : option.value;
                const label = texts.options?.[value];
                if (!label?.trim()) return option;
                return typeof option === 'string' ? { value, label } : { ...option, label };
              }),
            }
          : {}),
      };
    }),
  };
}

const names = new Intl.DisplayNames(['en'], { type: 'language' });
/** "German (de)"; a tag Intl cannot name, as it is. */
export function languageName(tag: string): string {
  try {
    const name = names.of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

/** Where a refusal points, in words: `translations.de.fields.name.label` → "German (de), fields.name.label". */
export function whereIn(member: string): string {
  const [, tag, ...rest] = member.split('.');
  if (!tag) return member;
  return rest.length > 0 ? `${languageName(tag)}, ${rest.join('.')}` : languageName(tag);
}
