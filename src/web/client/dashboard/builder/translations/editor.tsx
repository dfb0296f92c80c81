import { useState } from 'preact/hooks';
import type { Translation, Translations } from '../../../../../shared/form.js';
import { SHIPPED_LANGUAGES } from '../../../../../shared/i18n/shipped.js';
import type { ApiError } from '../../api/client.js';
import { Notice, TextInput } from '../../ui/controls.js';
import { useFocusAfterRender } from '../focus-after.js';
import { Choice, Section } from '../inputs.js';
import {
  canonicalTag,
  languageName,
  missingCount,
  type OwnTexts,
  parseTranslationsFile,
  type TranslatableText,
  textAt,
  translatableTexts,
  whereIn,
  withText,
} from './model.js';

/**
 * The Languages tab (API.md §13, issue 22 item 6): languages added and removed, a language's
 * texts edited beside the form's own with what is missing counted and marked, the preview in
 * the language chosen, and a language exported to or imported from a JSON file
 * (`{tag: Translation}`). The server judges the texts on save; its refusals are shown here.
 */

const OTHER = 'other';

export function LanguagesPanel({
  formId,
  own,
  ownLanguage,
  translations,
  onChange,
  chosen,
  onChoose,
  error,
}: {
  formId: string;
  own: OwnTexts;
  /** The form's own language (ui.language, en by default). */
  ownLanguage: string;
  translations: Translations;
  onChange: (translations: Translations) => void;
  /** The language edited, and shown by the preview. */
  chosen: string | undefined;
  onChoose: (tag: string | undefined) => void;
  error: ApiError | undefined;
}) {
  const texts = translatableTexts(own);
  const tags = Object.keys(translations);
  const focusAfter = useFocusAfterRender();
  const offered = SHIPPED_LANGUAGES.filter((tag) => tag !== ownLanguage && !tags.includes(tag));
  const [toAdd, setToAdd] = useState<string>(offered[0] ?? OTHER);
  const [typed, setTyped] = useState('');
  const [addError, setAddError] = useState<string>();
  const [fileNews, setFileNews] = useState<{ kind: 'error' | 'success'; text: string }>();
  const refusals = error?.errors.filter((problem) => problem.field.startsWith('translations')) ?? [];
  // a language just added is no longer offered: the next one is
  const adding = toAdd === OTHER ? OTHER : offered.includes(toAdd) ? toAdd : (offered[0] ?? OTHER);

  const add = () => {
    const tag = adding === OTHER ? canonicalTag(typed) : adding;
    if (!tag) return setAddError('Type a language tag, such as pt-BR or zh-Hant.');
    if (tag === ownLanguage) return setAddError(`${languageName(tag)} is the form’s own language.`);
    if (tags.includes(tag)) return setAddError(`${languageName(tag)} is added already.`);
    setAddError(undefined);
    setTyped('');
    onChange({ ...translations, [tag]: {} });
    onChoose(tag);
    focusAfter(`translation-${texts[0]?.path.join('-')}`);
  };
  const remove = (tag: string) => {
    const { [tag]: _gone, ...rest } = translations;
    onChange(rest);
    if (chosen === tag) onChoose(undefined);
    focusAfter('language-add');
  };

  return (
    <>
      <Section title="Languages">
        <p class="hint">
          The form is written in {languageName(ownLanguage)} (Settings, Page). Each language added is offered
          to respondents by their browser’s language, or by a link with <code>?lang=</code>; a text not
          translated shows the form’s own.
        </p>
        {refusals.length > 0 && (
          <Notice kind="error" announce={error}>
            The translations were not saved:{' '}
            {refusals.map((problem) => `${whereIn(problem.field)}: ${problem.message}`).join('; ')}
          </Notice>
        )}
        {tags.length > 0 && (
          <ul class="languages" aria-label="Languages of the form">
            {tags.map((tag) => {
              const missing = missingCount(translations[tag], texts);
              return (
                <li key={tag} class="languages__item">
                  <span>
                    <strong>{languageName(tag)}</strong>{' '}
                    <span class={missing > 0 ? 'badge badge--draft' : 'badge badge--live'}>
                      {missing > 0 ? `${missing} of ${texts.length} missing` : 'all translated'}
                    </span>
                  </span>
                  <span class="actions">
                    <button
                      class="button button--small"
                      type="button"
                      aria-pressed={chosen === tag}
                      onClick={() => onChoose(tag)}
                    >
                      Edit<span class="visually-hidden"> {languageName(tag)}</span>
                    </button>
                    <button class="button button--small" type="button" onClick={() => remove(tag)}>
                      Remove<span class="visually-hidden"> {languageName(tag)}</span>
                    </button>
                  </span>
                </li>
              );
            })}
          </ul>
        )}
        <div class="accent-row">
          <Choice
            id="language-add"
            label="Add a language"
            value={adding}
            options={[
              ...offered.map((tag) => ({ value: tag, label: languageName(tag) })),
              { value: OTHER, label: 'Another (type its tag)' },
            ]}
            onChange={setToAdd}
          />
          {adding === OTHER && (
            <TextInput
              id="language-tag"
              label="Language tag (BCP 47)"
              hint="Such as pt-BR, zh-Hant, sw."
              value={typed}
              onInput={setTyped}
              error={addError}
            />
          )}
          <div class="control-row">
            <button class="button" type="button" onClick={add}>
              Add language
            </button>
          </div>
        </div>
        {adding !== OTHER && addError && <p class="error">{addError}</p>}
        <div class="control-row">
          <label for="language-import">Import a language (a JSON file exported here)</label>
          <input
            id="language-import"
            type="file"
            accept="application/json,.json"
            onChange={async (event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (!file) return;
              let json: unknown;
              try {
                json = JSON.parse(await file.text());
              } catch {
                return setFileNews({ kind: 'error', text: `${file.name} is not JSON.` });
              }
              const read = parseTranslationsFile(json);
              if ('error' in read) return setFileNews({ kind: 'error', text: `${file.name}: ${read.error}` });
              const imported = Object.keys(read.translations);
              onChange({ ...translations, ...read.translations });
              onChoose(imported[0]);
              setFileNews({
                kind: 'success',
                text: `Imported ${imported.map(languageName).join(', ')}: save to keep it.`,
              });
            }}
          />
        </div>
        {fileNews && (
          <Notice kind={fileNews.kind} announce={fileNews}>
            {fileNews.text}
          </Notice>
        )}
      </Section>
      {chosen && translations[chosen] && (
        <TranslationTexts
          formId={formId}
          tag={chosen}
          ownLanguage={ownLanguage}
          texts={texts}
          translation={translations[chosen] ?? {}}
          onChange={(translation) => onChange({ ...translations, [chosen]: translation })}
          error={error}
        />
      )}
    </>
  );
}

/** One language's texts, each beside the form's own; missing ones marked; export as JSON. */
function TranslationTexts({
  formId,
  tag,
  ownLanguage,
  texts,
  translation,
  onChange,
  error,
}: {
  formId: string;
  tag: string;
  ownLanguage: string;
  texts: readonly TranslatableText[];
  translation: Translation;
  onChange: (translation: Translation) => void;
  error: ApiError | undefined;
}) {
  const name = languageName(tag);
  const ownName = languageName(ownLanguage);
  const exportFile = () => {
    const blob = new Blob([`${JSON.stringify({ [tag]: translation }, null, 2)}\n`], {
      type: 'application/json',
    });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `${formId}.${tag}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };
  return (
    <Section title={`Texts in ${name}`}>
      <p class="actions">
        <button class="button button--small" type="button" onClick={exportFile}>
          Export {name} (JSON)
        </button>
      </p>
      <div class="translation-row translation-row--head" aria-hidden="true">
        <p class="translation-row__own-head">{ownName}</p>
        <p class="translation-row__label">{name}</p>
      </div>
      {texts.map((text) => {
        const id = `translation-${text.path.join('-')}`;
        const value = textAt(translation, text.path);
        const missing = value.trim() === '';
        const problem = error?.about(`translations.${tag}.${text.path.join('.')}`);
        const described = [`${id}-own`, missing && `${id}-missing`, problem && `${id}-error`]
          .filter(Boolean)
          .join(' ');
        const control = {
          id,
          value,
          'aria-describedby': described,
          'aria-invalid': problem ? ('true' as const) : undefined,
          lang: tag,
          onInput: (event: { currentTarget: { value: string } }) =>
            onChange(withText(translation, text.path, event.currentTarget.value)),
        };
        return (
          <div key={id} class={`translation-row${missing ? ' translation-row--missing' : ''}`}>
            <p class="translation-row__label">
              <label for={id}>{text.what}</label>
              {missing && (
                <span class="badge badge--draft" id={`${id}-missing`}>
                  missing
                </span>
              )}
            </p>
            <p class="translation-row__own" id={`${id}-own`} lang={ownLanguage}>
              <span class="visually-hidden">{ownName}: </span>
              {text.own}
            </p>
            <div class={`control-row translation-row__input${problem ? ' control-row--invalid' : ''}`}>
              {problem && (
                <p class="error" id={`${id}-error`}>
                  {problem}
                </p>
              )}
              {text.multiline ? <textarea rows={3} {...control} /> : <input type="text" {...control} />}
            </div>
          </div>
        );
      })}
    </Section>
  );
}
