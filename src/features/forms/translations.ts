import type { FieldError, PublicForm, Translation, Translations } from '../../shared/form.js';
import { chooseLanguage } from '../../shared/i18n/negotiate.js';
import type { Field, Ui } from './schemas.js';

/**
 * A form's translations (API.md §13): the rules they are saved under, and a public view put
 * into one of its languages. The form's own texts are in `ui.language` (default `en`); the
 * languages are that one and the translations' tags.
 */

export const DEFAULT_LANGUAGE = 'en';

/** A tag as `Intl` writes it (`de-de` → `de-DE`), or undefined when it is no BCP 47 tag. */
export function canonicalTag(tag: string): string | undefined {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical;
  } catch {
    return undefined;
  }
}

export const defaultLanguageOf = (ui: Pick<Ui, 'language'>): string =>
  (ui.language && canonicalTag(ui.language)) || DEFAULT_LANGUAGE;

/** The form's languages: its own first, then its translations' in the order they were given. */
export function languagesOf(definition: { ui: Ui; translations?: Translations }): string[] {
  const own = defaultLanguageOf(definition.ui);
  return [own, ...Object.keys(definition.translations ?? {}).filter((tag) => tag !== own)];
}

/**
 * The language a request asks of a form (API.md §13): `?lang=`, else the best match of
 * `Accept-Language`, among the form's languages, else its own. A form with no translations has
 * one language only: nothing to negotiate (this runs on the submit path).
 */
export function requestedLanguageOf(
  definition: { ui: Ui; translations?: Translations },
  request: { query?: unknown; headers: { 'accept-language'?: string | undefined } },
): string {
  if (Object.keys(definition.translations ?? {}).length === 0) return defaultLanguageOf(definition.ui);
  return chooseLanguage(languagesOf(definition), {
    lang: (request.query as Record<string, unknown> | undefined)?.lang,
    acceptLanguage: request.headers['accept-language'],
  });
}

const problem = (field: string, code: string, message: string): FieldError => ({ field, code, message });

const optionValues = (field: Field): string[] =>
  (field.options ?? []).map((option) => (typeof option === 'string' ? option : option.value));

/**
 * Every problem of `translations` beyond its shape: a tag that is no BCP 47 tag, or not written
 * the canonical way, or the form's own language; a field the form lacks; an option its field
 * lacks (or options for a field without any).
 */
export function checkTranslations(
  translations: Translations | undefined,
  fields: ReadonlyArray<Field | undefined>,
  ui: Ui,
): FieldError[] {
  if (!translations) return [];
  const errors: FieldError[] = [];
  const byId = new Map(fields.flatMap((field) => (field ? [[field.id, field] as const] : [])));
  const own = defaultLanguageOf(ui);
  for (const [tag, translation] of Object.entries(translations)) {
    const at = `translations.${tag}`;
    const canonical = canonicalTag(tag);
    if (!canonical) {
      errors.push(
        problem(at, 'invalid_language', `"${tag}" is not a BCP 47 language tag (such as de, pt-BR, zh-Hans)`),
      );
      continue;
    }
    if (canonical !== tag) {
      errors.push(problem(at, 'invalid_language', `write the tag "${tag}" as "${canonical}"`));
      continue;
    }
    if (canonical === own) {
      errors.push(
        problem(
          at,
          'invalid_language',
          `"${tag}" is the form's own language (ui.language): its texts are the form's own`,
        ),
      );
    }
    for (const [fieldId, texts] of Object.entries(translation.fields ?? {})) {
      const field = byId.get(fieldId);
      if (!field) {
        errors.push(
          problem(`${at}.fields.${fieldId}`, 'unknown_field', `names no field of this form ("${fieldId}")`),
        );
        continue;
      }
      if (!texts.options) continue;
      const values = optionValues(field);
      if (values.length === 0) {
        errors.push(
          problem(
            `${at}.fields.${fieldId}.options`,
            'unknown_option',
            `"${fieldId}" has no options to translate`,
          ),
        );
        continue;
      }
      for (const value of Object.keys(texts.options)) {
        if (!values.includes(value)) {
          errors.push(
            problem(
              `${at}.fields.${fieldId}.options.${value}`,
              'unknown_option',
              `"${value}" is not an option of "${fieldId}" (${values.map((v) => `"${v}"`).join(', ')})`,
            ),
          );
        }
      }
    }
  }
  return errors;
}

const text = (translated: string | undefined, own: string | undefined): string | undefined =>
  translated?.trim() ? translated : own;

/**
 * The public view in `language` (one of the form's: the caller chose it): each text the
 * translation has replaces the form's own, the others stay.
 */
export function translatePublicForm(view: PublicForm, translation: Translation | undefined): PublicForm {
  if (!translation) return view;
  const fields = view.fields.map((field) => {
    const texts = translation.fields?.[field.id];
    if (!texts) return field;
    const translated = { ...field, label: text(texts.label, field.label) ?? field.label };
    const help = text(texts.help, field.help);
    const placeholder = text(texts.placeholder, field.placeholder);
    if (help !== undefined) translated.help = help;
    if (placeholder !== undefined) translated.placeholder = placeholder;
    if (field.options && texts.options) {
      const labels = texts.options;
      translated.options = field.options.map((option) => {
        const value = typeof option === 'string' ? option : option.value;
        const label = labels[value]?.trim();
        return label ? { value, label } : option;
      });
    }
    return translated;
  });
  const ui = { ...view.ui };
  for (const member of ['description', 'submitLabel', 'successMessage'] as const) {
    const translated = text(translation[member], ui[member]);
    if (translated !== undefined) ui[member] = translated;
  }
  const access = { ...view.access };
  const closedMessage = text(translation.closedMessage, access.closedMessage);
  if (closedMessage !== undefined) access.closedMessage = closedMessage;
  return { ...view, title: text(translation.title, view.title) ?? view.title, fields, ui, access };
}
