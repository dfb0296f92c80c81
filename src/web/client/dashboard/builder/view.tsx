import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import type { PageForm } from '../../../../shared/form.js';
import { useSession } from '../session.js';
import { may, needs } from '../teams/roles.js';
import { Notice, TextInput, useTitle } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
import { lazyPart } from '../ui/lazy.js';
import { useLeaveGuard } from '../ui/leave-guard.js';
import { type Draft, withFields } from './draft.js';
import { Elsewhere } from './elsewhere.js';
import { FieldsEditor } from './fields-editor.js';
import { Section } from './inputs.js';
import { LogicEditor } from './logic-editor.js';
import { toLogic, type Ui } from './model.js';
import { Preview } from './preview.js';
import { ResponsesSection } from './responses.js';
import { SaveBar, SaveNotices } from './save-bar.js';
import { useSaveFlow } from './save-flow.js';
import { DesignSection, PageSection, PrivacySection } from './sections.js';
import { BuilderTabs } from './tabs.js';
import { canonicalTag, languageName, translatedPage } from './translations/model.js';

// the Languages and Share tabs in chunks of their own: the builder's first paint needs neither
const LanguagesPanel = lazyPart(() =>
  import('./translations/editor.js').then((module) => module.LanguagesPanel),
);
const SharePanel = lazyPart(() => import('./share.js').then((module) => module.SharePanel));

/**
 * The form builder (API.md §11.3): fields, rules, logic, the page's `ui`, PII handling, spam
 * protection, notifications and retention, beside a live preview drawn by the hosted page's
 * own components. Saved through save-flow.ts (a published form through its working copy), from
 * a bar that stays in sight (save-bar.tsx); leaving with unsaved edits asks first (ui/leave-guard.ts).
 * Publish, unpublish, archive, copy to another environment, delete.
 */

/** One builder per form: another form's starts afresh (the router keeps a component across ids). */
export function Builder() {
  const { params } = useRoute();
  const id = params.id ?? '';
  return <FormBuilder key={id} id={id} />;
}

/**
 * What a member whose role may not change forms (a viewer) sees of the builder's controls:
 * disabled, all at once (a disabled fieldset), the reason said above them. The server refuses
 * their changes whatever the page shows.
 */
function Locked({ locked, children }: { locked: boolean; children: ComponentChildren }) {
  if (!locked) return <>{children}</>;
  return (
    <fieldset class="builder__locked" disabled>
      {children}
    </fieldset>
  );
}

function FormBuilder({ id }: { id: string }) {
  const { role } = useSession();
  const locked = !may(role, 'manageForms');
  const flow = useSaveFlow(id);
  const { form, busy, error } = flow;
  /** What is typed; undefined until the first change (the stored form's, or its working copy's, till then). */
  const [edited, setDraft] = useState<Draft>();
  /** The place of the field whose card has focus: the preview shows that question (its id may change as its label does). */
  const [editingField, setEditingField] = useState<number>();
  /** The language the Languages tab edits: the preview shows the form in it. */
  const [language, setLanguage] = useState<string>();
  const draft = edited ?? flow.base;
  useTitle(draft ? `Edit “${draft.title}”` : 'Form builder');
  useLeaveGuard(
    draft !== undefined && flow.unsaved(draft),
    'You have unsaved changes to this form. Leave without saving them?',
  );

  const shownLanguage = language && draft?.translations[language] ? language : undefined;
  const preview = useMemo<PageForm | undefined>(
    () =>
      draft &&
      translatedPage(
        {
          id,
          title: draft.title,
          fields: draft.fields.map(({ pii: _pii, piiMode: _mode, ...field }) => field),
          ui: draft.ui,
          logic: toLogic(draft.rules, draft.fields),
          spamProtection: { honeypot: draft.honeypot ? { field: draft.honeypotField } : null, captcha: null },
        },
        shownLanguage ? draft.translations[shownLanguage] : undefined,
      ),
    [draft, id, shownLanguage],
  );

  if (flow.loadError)
    return (
      <Notice kind="error" announce={flow.loadError}>
        {flow.loadError.message}
      </Notice>
    );
  if (!form || !draft || !preview) return <p role="status">Loading the form…</p>;

  const change = (partial: Partial<Draft>) => setDraft({ ...draft, ...partial });
  const changeUi = (partial: Partial<Ui>) => change({ ui: { ...draft.ui, ...partial } });

  // a member's own problem, or one of its items' (`fields[0].accept[2]`, `fields[1].options[3]`)
  const fieldError = (index: number, member: string) => {
    const path = `fields[${index}].${member}`;
    return error?.errors.find((problem) => problem.field === path || problem.field.startsWith(`${path}[`))
      ?.message;
  };
  const link = `${location.origin}/f/${id}`;

  return (
    <section class="view builder">
      <h1>Edit “{draft.title}”</h1>
      <p class="muted">
        <span class={`badge badge--${form.status}`}>{form.status}</span> in {form.environment} · version{' '}
        {form.version} ·{' '}
        <a href={link} target="_blank" rel="noopener">
          {link}
          <span class="visually-hidden"> (opens in a new tab)</span>
        </a>{' '}
        <CopyButton text={link} label="Copy link" />{' '}
        <a class="button button--small" href={`/app/forms/${encodeURIComponent(id)}/inbox`}>
          Inbox
        </a>{' '}
        <a class="button button--small" href={`/app/forms/${encodeURIComponent(id)}/webhooks`}>
          Webhooks
        </a>{' '}
        <a class="button button--small" href={`/app/analytics?form=${encodeURIComponent(id)}`}>
          Analytics
        </a>
      </p>
      {locked && (
        <Notice kind="info">You can read this form, not change it. {needs(role, 'manageForms')}</Notice>
      )}
      <Locked locked={locked}>
        <SaveBar flow={flow} draft={draft} onDiscarded={() => setDraft(undefined)} />
        <SaveNotices flow={flow} draft={draft} />
        <p class="actions builder__actions">
          {/* edits pending in a working copy while the form is not live: it goes live as published, the copy waits */}
          {flow.mode === 'copy' && form.status !== 'live' && (
            <button
              class="button"
              type="button"
              disabled={busy}
              onClick={() => flow.setStatus(draft, 'live')}
            >
              Make live
            </button>
          )}
          {form.status === 'live' && (
            <button
              class="button"
              type="button"
              disabled={busy}
              onClick={() => flow.setStatus(draft, 'draft')}
            >
              Unpublish
            </button>
          )}
          {form.status !== 'archived' && (
            <button
              class="button"
              type="button"
              disabled={busy}
              onClick={() => flow.setStatus(draft, 'archived')}
            >
              Archive
            </button>
          )}
        </p>
      </Locked>
      <BuilderTabs
        errorMembers={error?.errors.map((problem) => problem.field) ?? []}
        preview={
          <>
            {shownLanguage && <p class="muted">In {languageName(shownLanguage)}.</p>}
            <Preview
              form={preview}
              language={shownLanguage ?? canonicalTag(draft.ui.language ?? '') ?? 'en'}
              focusFieldId={editingField === undefined ? undefined : draft.fields[editingField]?.id}
            />
          </>
        }
        panels={{
          build: (
            <Locked locked={locked}>
              <Section title="Form">
                <TextInput
                  id="form-title"
                  label="Title"
                  value={draft.title}
                  onInput={(title) => change({ title })}
                  error={error?.about('title')}
                />
                <TextInput
                  id="form-description"
                  label="Description (shown under the title)"
                  multiline
                  value={draft.ui.description}
                  onInput={(description) => changeUi({ description: description || undefined })}
                />
              </Section>
              <Section title="Fields">
                <FieldsEditor
                  fields={draft.fields}
                  onChange={(fields) => setDraft(withFields(draft, fields))}
                  errorsFor={fieldError}
                  // once respondents' answers are keyed by the ids, they stay (decisions.md)
                  idsFollowLabels={form.status === 'draft'}
                  onEditing={setEditingField}
                />
              </Section>
              <Section title="Logic">
                <LogicEditor
                  rules={draft.rules}
                  fields={draft.fields}
                  onChange={(rules) => change({ rules })}
                />
              </Section>
            </Locked>
          ),
          design: (
            <Locked locked={locked}>
              <DesignSection ui={draft.ui} changeUi={changeUi} error={error} />
            </Locked>
          ),
          settings: (
            <Locked locked={locked}>
              <PageSection ui={draft.ui} changeUi={changeUi} error={error} />
              <ResponsesSection
                access={draft.access}
                fields={draft.fields}
                onChange={(access) => change({ access })}
                error={error}
              />
              <PrivacySection draft={draft} change={change} error={error} />
              <Elsewhere form={form} draft={draft} />
            </Locked>
          ),
          languages: (
            <Locked locked={locked}>
              <LanguagesPanel
                formId={id}
                own={{
                  title: draft.title,
                  ui: draft.ui,
                  fields: draft.fields,
                  closedMessage: draft.access.closedMessage,
                  autoResponse: draft.autoResponse,
                }}
                ownLanguage={canonicalTag(draft.ui.language ?? '') ?? 'en'}
                translations={draft.translations}
                onChange={(translations) => change({ translations })}
                chosen={shownLanguage}
                onChoose={setLanguage}
                error={error}
              />
            </Locked>
          ),
          share: <SharePanel formId={id} status={form.status} title={draft.title} />,
        }}
      />
    </section>
  );
}
