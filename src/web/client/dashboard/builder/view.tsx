import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import type { PublicForm } from '../../../components/form/types.js';
import { type ApiError, api, ok } from '../api/client.js';
import {
  bodyOf,
  type Draft,
  draftOf,
  embedOriginsOf,
  embedOriginsText,
  withFields,
  withoutNulls,
} from './draft.js';
import { FieldsEditor } from './fields-editor.js';
import { Choice, Section } from './inputs.js';
import { LogicEditor } from './logic-editor.js';
import { type StoredForm, toLogic, type Ui } from './model.js';
import { Preview } from './preview.js';
import { AutoResponseEditor, CaptchaEditor, SpamRulesEditor } from './protection.js';
import { useSession } from '../session.js';
import { Notice, TextInput, Tick, useTitle } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';

/**
 * The form builder (API.md §11.3): fields, rules, logic, the page's `ui`, PII handling, spam
 * protection, notifications and retention, beside a live preview drawn by the hosted page's
 * own components. Saved with If-Match: when someone else saved meanwhile (412) it says so and
 * keeps everything typed. Publish, unpublish, archive, copy to another environment, delete.
 */

export function Builder() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { route } = useLocation();
  const { environments } = useSession();
  const [form, setForm] = useState<StoredForm>();
  const [draft, setDraft] = useState<Draft>();
  const [error, setError] = useState<ApiError>();
  const [news, setNews] = useState<string>();
  /** A save refused with 412 (someone saved meanwhile), and the status it was to set. */
  const [stale, setStale] = useState<{ status?: StoredForm['status'] }>();
  const [busy, setBusy] = useState(false);
  const [copyTo, setCopyTo] = useState('production');
  const [confirmDelete, setConfirmDelete] = useState(false);
  useTitle(draft ? `Edit “${draft.title}”` : 'Form builder');

  useEffect(() => {
    ok(api.GET('/forms/{id}', { params: { path: { id } } }))
      .then((loaded) => {
        // the owner's view: the dashboard only opens its own user's forms
        setForm(loaded as StoredForm);
        setDraft(draftOf(loaded as StoredForm));
      })
      .catch((caught: ApiError) => setError(caught));
  }, [id]);

  const preview = useMemo<PublicForm | undefined>(
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

  if (error && !form)
    return (
      <Notice kind="error" announce={error}>
        {error.message}
      </Notice>
    );
  if (!form || !draft || !preview) return <p role="status">Loading the form…</p>;

  const change = (partial: Partial<Draft>) => setDraft({ ...draft, ...partial });
  const changeUi = (partial: Partial<Ui>) => change({ ui: { ...draft.ui, ...partial } });

  /** Saves (with the status given, if any); `force`: over a version saved meanwhile (the 412 was read). */
  const save = async (status?: StoredForm['status'], force = false) => {
    setBusy(true);
    setError(undefined);
    setNews(undefined);
    try {
      const version = force
        ? (await ok(api.GET('/forms/{id}', { params: { path: { id } } }))).version
        : form.version;
      const saved = await ok(
        api.PUT('/forms/{id}', {
          params: { path: { id }, header: { 'If-Match': `"${version}"` } },
          body: { ...bodyOf(draft, form), ...(status ? { status } : {}) },
        }),
      );
      setForm(saved as StoredForm);
      setStale(undefined);
      setNews(status ? `Saved, and now ${saved.status}.` : 'Saved.');
    } catch (caught) {
      const problem = caught as ApiError;
      if (problem.status === 412) setStale({ status });
      else setError(problem);
    } finally {
      setBusy(false);
    }
  };

  const copy = async (target: string) => {
    setError(undefined);
    setNews(undefined);
    try {
      const body = withoutNulls({ ...bodyOf(draft, form), environment: target }) as Record<string, unknown>;
      const spam = body.spamProtection as { captcha?: { secret?: string } } | undefined;
      // a CAPTCHA's secret is never read back: the copy goes without its CAPTCHA until one is entered there
      const captchaLeft = Boolean(spam?.captcha && !spam.captcha.secret);
      if (captchaLeft && spam) delete spam.captcha;
      const copied = await ok(api.POST('/forms', { body: body as never }));
      setNews(
        `Copied to ${target} as a draft (${copied.id}): switch to ${target} to see it.${
          captchaLeft ? ' Its CAPTCHA needs its secret key entered there again.' : ''
        }`,
      );
    } catch (caught) {
      setError(caught as ApiError);
    }
  };

  const remove = async () => {
    try {
      await ok(api.DELETE('/forms/{id}', { params: { path: { id } } }));
      route('/app');
    } catch (caught) {
      setError(caught as ApiError);
    }
  };

  const fieldError = (index: number, member: string) =>
    error?.errors.find((problem) => problem.field === `fields[${index}].${member}`)?.message;
  const link = `${location.origin}/f/${id}`;
  // the environments a copy may go to: any but the form's own
  const others = environments.filter((name) => name !== form.environment);
  const target = others.includes(copyTo) ? copyTo : (others[0] ?? '');

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
      <div class="builder__columns">
        <div class="builder__editor">
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
              label="Description"
              multiline
              value={draft.ui.description as string | undefined}
              onInput={(description) => changeUi({ description: description || undefined })}
            />
          </Section>
          <Section title="Fields">
            <FieldsEditor
              fields={draft.fields}
              onChange={(fields) => setDraft(withFields(draft, fields))}
              errorsFor={fieldError}
            />
          </Section>
          <Section title="Logic">
            <LogicEditor rules={draft.rules} fields={draft.fields} onChange={(rules) => change({ rules })} />
          </Section>
          <Section title="Page">
            <Choice
              id="ui-layout"
              label="Layout"
              value={(draft.ui.layout ?? 'one-by-one') as string}
              options={[
                { value: 'one-by-one', label: 'One question a page' },
                { value: 'classic', label: 'Every field on one page' },
              ]}
              onChange={(layout) => changeUi({ layout: layout as Ui['layout'] })}
            />
            <Choice
              id="ui-theme"
              label="Theme"
              value={(draft.ui.theme ?? 'auto') as string}
              options={[
                { value: 'auto', label: 'As the visitor’s system' },
                { value: 'light', label: 'Light' },
                { value: 'dark', label: 'Dark' },
              ]}
              onChange={(theme) => changeUi({ theme: theme as Ui['theme'] })}
            />
            <Choice
              id="ui-progress"
              label="Progress"
              value={(draft.ui.progress ?? 'steps') as string}
              options={[
                { value: 'steps', label: '“Question 2 of 5”' },
                { value: 'bar', label: 'A bar' },
                { value: 'none', label: 'None' },
              ]}
              onChange={(progress) => changeUi({ progress: progress as Ui['progress'] })}
            />
            <TextInput
              id="ui-submit"
              label="Submit button"
              value={draft.ui.submitLabel as string | undefined}
              hint="Submit, when blank."
              onInput={(submitLabel) => changeUi({ submitLabel: submitLabel || undefined })}
            />
            <TextInput
              id="ui-success"
              label="Thank-you message"
              value={draft.ui.successMessage as string | undefined}
              hint="Thank you, when blank."
              onInput={(successMessage) => changeUi({ successMessage: successMessage || undefined })}
            />
            <TextInput
              id="ui-redirect"
              label="After sending, go to (a web address)"
              type="url"
              value={draft.ui.redirectUrl as string | undefined}
              onInput={(redirectUrl) => changeUi({ redirectUrl: redirectUrl || undefined })}
              error={error?.about('ui.redirectUrl')}
            />
            <TextInput
              id="ui-accent"
              label="Accent colour (#rrggbb)"
              value={draft.ui.accentColor as string | undefined}
              onInput={(accentColor) => changeUi({ accentColor: accentColor || undefined })}
              error={error?.about('ui.accentColor')}
            />
            <TextInput
              id="ui-embed-origins"
              label="Sites that may embed it (one origin a line)"
              hint="Such as https://www.example.com. Blank: any site may; “none”: no site."
              multiline
              value={embedOriginsText(draft.ui.embedOrigins)}
              onInput={(text) => changeUi({ embedOrigins: embedOriginsOf(text) })}
              error={error?.errors.find((problem) => problem.field.startsWith('ui.embedOrigins'))?.message}
            />
            <TextInput
              id="ui-language"
              label="Language (such as en, fr, ar)"
              value={draft.ui.language as string | undefined}
              onInput={(language) => changeUi({ language: language || undefined })}
            />
          </Section>
          <Section title="Privacy, spam, mail">
            <Choice
              id="storage-pii"
              label="Personal data, by default"
              value={draft.piiDefault}
              options={[
                { value: 'plain', label: 'Stored as given' },
                { value: 'masked', label: 'Masked' },
                { value: 'hashed', label: 'Hashed' },
                { value: 'encrypted', label: 'Encrypted' },
                { value: 'dropped', label: 'Not stored' },
              ]}
              onChange={(piiDefault) => change({ piiDefault })}
            />
            <Tick
              id="spam-honeypot"
              label="Catch bots with a hidden field (honeypot)"
              checked={draft.honeypot}
              onChange={(honeypot) => change({ honeypot })}
            />
            <CaptchaEditor captcha={draft.captcha} onChange={(captcha) => change({ captcha })} />
            <SpamRulesEditor
              rules={draft.spamRules}
              fields={draft.fields}
              onChange={(spamRules) => change({ spamRules })}
            />
            <Choice
              id="spam-action"
              label="Spam is"
              value={draft.spamAction}
              options={[
                { value: 'reject', label: 'Refused' },
                { value: 'flag', label: 'Stored, flagged' },
                { value: 'quarantine', label: 'Stored apart (quarantine)' },
              ]}
              onChange={(spamAction) => change({ spamAction })}
            />
            <AutoResponseEditor
              reply={draft.autoResponse}
              fields={draft.fields}
              onChange={(autoResponse) => change({ autoResponse })}
            />
            <Tick
              id="notify"
              label="Mail me each new response"
              checked={draft.notify}
              onChange={(notify) => change({ notify })}
            />
            <TextInput
              id="notify-to"
              label="To (addresses, comma-separated)"
              value={draft.notifyTo}
              onInput={(notifyTo) => change({ notifyTo })}
              error={error?.about('notifications.email.to')}
            />
            <TextInput
              id="retention"
              label="Delete responses after (days)"
              type="number"
              hint="Kept for good, when blank."
              value={draft.retentionDays}
              onInput={(retentionDays) => change({ retentionDays })}
              error={error?.about('retention.days')}
            />
          </Section>
          <Section title="Elsewhere">
            {others.length > 0 && (
              <div class="actions">
                <Choice
                  id="copy-to"
                  label="Copy to environment"
                  value={target}
                  options={others.map((name) => ({ value: name, label: name }))}
                  onChange={setCopyTo}
                />
                <button class="button" type="button" onClick={() => copy(target)}>
                  Copy form
                </button>
              </div>
            )}
            {confirmDelete ? (
              <p class="confirm">
                Delete “{draft.title}” and all its responses? This cannot be undone.{' '}
                <button class="button button--danger" type="button" onClick={remove}>
                  Delete for good
                </button>
                <button class="button" type="button" onClick={() => setConfirmDelete(false)}>
                  Keep it
                </button>
              </p>
            ) : (
              <button class="button button--danger" type="button" onClick={() => setConfirmDelete(true)}>
                Delete form
              </button>
            )}
          </Section>
        </div>
        <aside class="builder__preview" aria-label="Preview">
          <h2>Preview</h2>
          <Preview form={preview} />
        </aside>
      </div>
    </section>
  );
}
