import { useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import type { PageForm } from '../../../../shared/form.js';
import { ApiError, api, ok } from '../api/client.js';
import { loadStoredForm, useStoredForm } from '../forms/resource.js';
import { useAction } from '../ui/action.js';
import { Notice, TextInput, useTitle } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
import { bodyOf, type Draft, draftOf, withFields } from './draft.js';
import { Elsewhere } from './elsewhere.js';
import { FieldsEditor } from './fields-editor.js';
import { Section } from './inputs.js';
import { LogicEditor } from './logic-editor.js';
import { type StoredForm, toLogic, type Ui } from './model.js';
import { Preview } from './preview.js';
import { DesignSection, PageSection, PrivacySection } from './sections.js';
import { SharePanel } from './share.js';
import { BuilderTabs } from './tabs.js';

/**
 * The form builder (API.md §11.3): fields, rules, logic, the page's `ui`, PII handling, spam
 * protection, notifications and retention, beside a live preview drawn by the hosted page's
 * own components. Saved with If-Match: when someone else saved meanwhile (412) it says so and
 * keeps everything typed. Publish, unpublish, archive, copy to another environment, delete.
 */

/** One builder per form: another form's starts afresh (the router keeps a component across ids). */
export function Builder() {
  const { params } = useRoute();
  const id = params.id ?? '';
  return <FormBuilder key={id} id={id} />;
}

function FormBuilder({ id }: { id: string }) {
  // read afresh, never the cache's: a save's If-Match is the version as the server has it now
  const stored = useStoredForm(id, { fresh: true });
  const form = stored.data;
  /** What is typed; undefined until the first change (the stored form's own draft till then). */
  const [edited, setDraft] = useState<Draft>();
  /** The place of the field whose card has focus: the preview shows that question (its id may change as its label does). */
  const [editingField, setEditingField] = useState<number>();
  const draft = useMemo(() => edited ?? (form && draftOf(form)), [edited, form]);
  const [news, setNews] = useState<string>();
  /** A save refused with 412 (someone saved meanwhile), and the status it was to set. */
  const [stale, setStale] = useState<{ status?: StoredForm['status'] }>();
  const { busy, error, run } = useAction();
  useTitle(draft ? `Edit “${draft.title}”` : 'Form builder');

  const preview = useMemo<PageForm | undefined>(
    () =>
      draft && {
        id,
        title: draft.title,
        fields: draft.fields.map(({ pii: _pii, piiMode: _mode, ...field }) => field),
        ui: draft.ui,
        logic: toLogic(draft.rules, draft.fields),
        spamProtection: { honeypot: draft.honeypot ? { field: draft.honeypotField } : null, captcha: null },
      },
    [draft, id],
  );

  if (stored.error && !form)
    return (
      <Notice kind="error" announce={stored.error}>
        {stored.error.message}
      </Notice>
    );
  if (!form || !draft || !preview) return <p role="status">Loading the form…</p>;

  const change = (partial: Partial<Draft>) => setDraft({ ...draft, ...partial });
  const changeUi = (partial: Partial<Ui>) => change({ ui: { ...draft.ui, ...partial } });

  /** Saves (with the status given, if any); `force`: over a version saved meanwhile (the 412 was read). */
  const save = (status?: StoredForm['status'], force = false) => {
    setNews(undefined);
    return run(async () => {
      const version = force ? (await loadStoredForm(id)).version : form.version;
      try {
        const saved = await ok(
          api.PUT('/forms/{id}', {
            params: { path: { id }, header: { 'If-Match': `"${version}"` } },
            body: { ...bodyOf(draft, form), ...(status ? { status } : {}) },
          }),
        );
        // what the inbox, webhooks and analytics show of it too
        stored.set(saved);
        setStale(undefined);
        setNews(status ? `Saved, and now ${saved.status}.` : 'Saved.');
      } catch (caught) {
        if (!(caught instanceof ApiError && caught.status === 412)) throw caught;
        setStale({ status });
      }
    });
  };

  const fieldError = (index: number, member: string) =>
    error?.errors.find((problem) => problem.field === `fields[${index}].${member}`)?.message;
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
      {stale && (
        <Notice kind="error" announce={stale}>
          <p>
            Someone saved this form since you opened it. Nothing you typed is lost: save anyway to replace
            their version with yours, or reload to see theirs (and lose your changes).
          </p>
          <p class="actions">
            <button
              class="button button--primary"
              type="button"
              disabled={busy}
              onClick={() => save(stale.status, true)}
            >
              Save anyway
            </button>
            <button class="button" type="button" onClick={() => location.reload()}>
              Reload their version
            </button>
          </p>
        </Notice>
      )}
      {error && (
        <Notice kind="error" announce={error}>
          <p>{error.message}</p>
          {error.errors.length > 0 && (
            <ul>
              {error.errors.map((problem) => (
                <li key={problem.field}>
                  {problem.field}: {problem.message}
                </li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      {news && <Notice kind="success">{news}</Notice>}
      <p class="actions builder__actions">
        <button class="button button--primary" type="button" disabled={busy} onClick={() => save()}>
          Save
        </button>
        {form.status === 'live' ? (
          <button class="button" type="button" disabled={busy} onClick={() => save('draft')}>
            Unpublish
          </button>
        ) : (
          <button class="button" type="button" disabled={busy} onClick={() => save('live')}>
            Publish
          </button>
        )}
        {form.status !== 'archived' && (
          <button class="button" type="button" disabled={busy} onClick={() => save('archived')}>
            Archive
          </button>
        )}
      </p>
      <BuilderTabs
        errorMembers={error?.errors.map((problem) => problem.field) ?? []}
        preview={
          <Preview
            form={preview}
            focusFieldId={editingField === undefined ? undefined : draft.fields[editingField]?.id}
          />
        }
        panels={{
          build: (
            <>
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
            </>
          ),
          design: <DesignSection ui={draft.ui} changeUi={changeUi} error={error} />,
          settings: (
            <>
              <PageSection ui={draft.ui} changeUi={changeUi} error={error} />
              <PrivacySection draft={draft} change={change} error={error} />
              <Elsewhere form={form} draft={draft} />
            </>
          ),
          share: <SharePanel formId={id} status={form.status} title={draft.title} />,
        }}
      />
    </section>
  );
}
