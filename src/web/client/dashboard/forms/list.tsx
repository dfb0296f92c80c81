import { useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { may, needs } from '../teams/roles.js';
import { useAction } from '../ui/action.js';
import { Notice, Tick, useTitle } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
import { useWhileShown } from '../ui/polling.js';
import { forgetCached, useResource } from '../ui/resource.js';
import { EnvironmentsExplained, TemplatePicker } from './first-run.js';
import { bodyOfTemplate, type Template } from './templates.js';

/**
 * The forms of the environment, each with its public link, its counts and a mark when one of its
 * webhooks is failing; templates to start from (open by themselves while there is no form).
 */
interface FormRow {
  id: string;
  title: string;
  status: string;
  updatedAt?: string;
}

interface Counts {
  submissions: number;
  unread: number;
  lastSubmissionAt: string | null;
}

/** How often the counts are asked for again while the list is shown. */
const COUNTS_EVERY_MS = 10_000;
/** How often the failing webhooks are: a retry's outcome is minutes apart at best. */
const FAILING_EVERY_MS = 30_000;

const NONE: Counts = { submissions: 0, unread: 0, lastSubmissionAt: null };

const STATUS_WORDS: Record<string, string> = {
  draft: 'Draft',
  live: 'Live',
  active: 'Active (keys only)',
  disabled: 'Closed',
  archived: 'Archived',
};

/** Every form of the environment (the archived ones too, when asked for). */
async function formsOf(environment: string, archived: boolean): Promise<FormRow[]> {
  const listed = ok(api.GET('/forms', { params: { query: { environment, limit: 100 } } }));
  // archived forms are left out of the list unless asked for
  const more = archived
    ? ok(api.GET('/forms', { params: { query: { environment, status: 'archived', limit: 100 } } }))
    : Promise.resolve({ data: [] });
  const [page, archivedPage] = await Promise.all([listed, more]);
  return [...page.data, ...archivedPage.data];
}

export function FormsList() {
  useTitle('Forms');
  const { environment, role } = useSession();
  const creates = may(role, 'manageForms');
  const [showArchived, setShowArchived] = useState(false);
  const forms = useResource(`forms:${environment}:${showArchived ? 'all' : 'current'}`, () =>
    formsOf(environment, showArchived),
  );
  // The counts follow responses as they arrive and are read elsewhere: asked at once for the
  // environment, then again every little while the tab is shown (never two at a time), and when
  // it is shown again. Until they come (or when they cannot), a form says nothing of its count.
  const summary = useResource(
    `summary:${environment}`,
    async () => (await ok(api.GET('/responses/summary', { params: { query: { environment } } }))).data,
  );
  useWhileShown(summary.reload, COUNTS_EVERY_MS);
  const counts = useMemo(
    () =>
      summary.error || !summary.data
        ? undefined
        : new Map(summary.data.map((entry) => [entry.formId, entry])),
    [summary.data, summary.error],
  );
  // the forms whose webhook is failing: one list of the environment's failing webhooks, not one a form
  const failing = useResource(`failing-webhooks:${environment}`, async () => {
    const page = await ok(
      api.GET('/webhooks', { params: { query: { environment, failing: true, limit: 100 } } }),
    );
    return new Set(page.data.map((webhook) => webhook.formId));
  });
  useWhileShown(failing.reload, FAILING_EVERY_MS);
  const { route } = useLocation();
  const action = useAction();
  const create = (template?: Template) =>
    action.run(async () => {
      const body = template
        ? bodyOfTemplate(template, environment)
        : { title: 'Untitled form', environment, fields: [] };
      const created = await ok(api.POST('/forms', { body }));
      forgetCached(`forms:${environment}:`);
      route(`/app/forms/${encodeURIComponent(created.id)}`);
    });
  const error = action.error ?? forms.error;
  const origin = location.origin;
  const empty = forms.data?.length === 0;
  return (
    <section class="view">
      <h1>Forms</h1>
      <p class="muted">
        In the <strong>{environment}</strong> environment.
      </p>
      <EnvironmentsExplained environment={environment} />
      <p class="actions">
        <button
          class="button button--primary"
          type="button"
          disabled={action.busy || !creates}
          aria-describedby={creates ? undefined : 'new-form-why'}
          onClick={() => create()}
        >
          New form
        </button>
      </p>
      {!creates && (
        <p class="hint" id="new-form-why">
          {needs(role, 'manageForms')}
        </p>
      )}
      {forms.data !== undefined && creates && (
        <TemplatePicker open={empty} busy={action.busy} onPick={(template) => create(template)} />
      )}
      <Tick
        id="show-archived"
        label="Show archived forms"
        checked={showArchived}
        onChange={setShowArchived}
      />
      {error && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      {forms.data === undefined ? (
        !error && <p role="status">Loading forms…</p>
      ) : forms.data.length === 0 ? (
        <p class="empty">No forms in {environment} yet: start from a template above, or with “New form”.</p>
      ) : (
        <ul class="cards">
          {forms.data.map((form) => {
            const link = `${origin}/f/${form.id}`;
            return (
              <li key={form.id} class="card">
                <h2 class="card__title">
                  <a href={`/app/forms/${encodeURIComponent(form.id)}`}>{form.title}</a>
                </h2>
                <p>
                  <span class={`badge badge--${form.status}`}>
                    {STATUS_WORDS[form.status] ?? form.status}
                  </span>
                </p>
                {failing.data?.has(form.id) && (
                  <p class="form-card__failing">
                    <a href={`/app/forms/${encodeURIComponent(form.id)}/webhooks`}>
                      A webhook is failing<span class="visually-hidden">: {form.title}</span>
                    </a>
                  </p>
                )}
                {counts && <Figures counts={counts.get(form.id) ?? NONE} />}
                <p class="card__link">
                  {/* a page of its own, not the dashboard's: a new tab (the router leaves it alone) */}
                  <a href={link} target="_blank" rel="noopener">
                    {link}
                    <span class="visually-hidden"> (opens in a new tab)</span>
                  </a>
                </p>
                <p class="actions">
                  <a
                    class="button button--small"
                    href={`/app/forms/${encodeURIComponent(form.id)}/inbox`}
                    aria-label={`Inbox: ${form.title}`}
                  >
                    Inbox
                  </a>
                  <a
                    class="button button--small"
                    href={`/app/forms/${encodeURIComponent(form.id)}/webhooks`}
                    aria-label={`Webhooks: ${form.title}`}
                  >
                    Webhooks
                  </a>
                  <a
                    class="button button--small"
                    href={`/app/analytics?form=${encodeURIComponent(form.id)}`}
                    aria-label={`Analytics: ${form.title}`}
                  >
                    Analytics
                  </a>
                  <CopyButton text={link} label="Copy link" />
                  <a
                    class="button button--small"
                    href={`/app/forms/${encodeURIComponent(form.id)}#share`}
                    aria-label={`Share: ${form.title}`}
                  >
                    Share
                  </a>
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** A form's responses at a glance: how many, how many unread, the last one's time. */
function Figures({ counts }: { counts: Counts }) {
  if (counts.submissions === 0) return <p class="muted">No responses yet</p>;
  return (
    <p class="figures">
      <span>
        {counts.submissions} {counts.submissions === 1 ? 'response' : 'responses'}
      </span>
      {counts.unread > 0 && <span class="badge badge--accent">{counts.unread} unread</span>}
      {counts.lastSubmissionAt && (
        <span class="muted">Last: {new Date(counts.lastSubmissionAt).toLocaleString()}</span>
      )}
    </p>
  );
}
