import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiError, api, apiErrorOf, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { Notice, useTitle } from '../ui/controls.js';
import { DateRange, RangeProblem } from '../ui/date-range.js';
import { when } from '../ui/format.js';
import { useResource } from '../ui/resource.js';
import {
  ACTION_KINDS_ALL,
  AUDIT_KINDS,
  type AuditEntry,
  type AuditFilter,
  actionWords,
  actorWords,
  auditQuery,
  filtered,
  type KnownNames,
  knownNames,
  NO_AUDIT_FILTER,
  refusalWords,
} from './model.js';
import { may, needs, type Workspace } from './roles.js';

/**
 * The workspace's audit log (API.md §14), for admins and owners: newest first, each entry in
 * words (who did what to what, when, from where), filtered by kind of action, member and dates,
 * and "Load more" with the server's cursor.
 */
export function Audit() {
  useTitle('Audit log');
  const { workspace, role } = useSession();
  if (!workspace || !may(role, 'manageAccess'))
    return (
      <section class="view">
        <h1>Audit log</h1>
        {workspace ? <p>{needs(role, 'manageAccess')}</p> : <p role="status">Loading the workspace…</p>}
      </section>
    );
  return <AuditLog workspace={workspace} />;
}

function AuditLog({ workspace }: { workspace: Workspace }) {
  const { environments } = useSession();
  const [filter, setFilter] = useState<AuditFilter>(NO_AUDIT_FILTER);
  const [entries, setEntries] = useState<AuditEntry[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  // who acted in any page read so far: a member who left stays a choice of "Who" and has a name
  const [actors, setActors] = useState<Pick<AuditEntry, 'actor'>[]>([]);
  const members = useResource(
    `members:${workspace.id}`,
    async () =>
      (await ok(api.GET('/workspaces/{id}/members', { params: { path: { id: workspace.id } } }))).data,
  );
  // forms are named by title where they still exist (a deleted one keeps its id)
  const forms = useResource(`audit-forms:${workspace.id}:${environments.join(',')}`, async () => {
    const pages = await Promise.all(
      environments.map((environment) =>
        ok(api.GET('/forms', { params: { query: { environment, limit: 100 } } })),
      ),
    );
    return pages.flatMap((page) => page.data.map((form) => [form.id, form.title] as const));
  });
  const names = useMemo<KnownNames>(
    () => knownNames(members.data ?? [], actors, forms.data ?? []),
    [members.data, actors, forms.data],
  );
  const problem = filter.from && filter.to && filter.to < filter.from ? '“To” is before “From”.' : undefined;

  // the latest read wins: a filter changed while a page is read asks again, and the older answer is dropped
  const latest = useRef(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const load = async (after?: string) => {
    const mine = ++latest.current;
    setBusy(true);
    setError(undefined);
    try {
      const page = await ok(
        api.GET('/workspaces/{id}/audit', {
          params: { path: { id: workspace.id }, query: auditQuery(filter, after) },
        }),
      );
      if (mine !== latest.current) return;
      setEntries((shown) => (after ? [...(shown ?? []), ...page.data] : page.data));
      setCursor(page.nextCursor);
      setActors((known) => [...known, ...page.data.map(({ actor }) => ({ actor }))]);
    } catch (caught) {
      if (mine === latest.current) setError(apiErrorOf(caught));
    } finally {
      if (mine === latest.current) setBusy(false);
    }
  };
  // read again when the filter changes (not when `load` is made anew, at every render)
  useEffect(() => {
    if (!problem) void load();
  }, [filter, problem]);

  const change = (member: keyof AuditFilter, value: string) =>
    setFilter((now) => ({ ...now, [member]: value }));
  return (
    <section class="view">
      <h1>Audit log</h1>
      <p class="muted">
        Every change made in <strong>{workspace.name}</strong>, by its members and their API keys, newest
        first.
      </p>
      <form
        class="audit__filters"
        aria-label="Filter the audit log"
        onSubmit={(event) => event.preventDefault()}
      >
        <div class="control-row">
          <label for="audit-action">What</label>
          <select
            id="audit-action"
            value={filter.action}
            onChange={(event) => change('action', event.currentTarget.value)}
          >
            <option value="">{ACTION_KINDS_ALL}</option>
            {AUDIT_KINDS.map((kind) => (
              <option key={kind.value} value={kind.value} selected={kind.value === filter.action}>
                {kind.label}
              </option>
            ))}
          </select>
        </div>
        <div class="control-row">
          <label for="audit-actor">Who</label>
          <select
            id="audit-actor"
            value={filter.actor}
            onChange={(event) => change('actor', event.currentTarget.value)}
          >
            <option value="">Anyone</option>
            {/* members, and those who acted in what is shown (one who left among them) */}
            {[...names.members].map(([userId, email]) => (
              <option key={userId} value={userId} selected={userId === filter.actor}>
                {email}
              </option>
            ))}
          </select>
        </div>
        <DateRange id="audit-dates" from={filter.from} to={filter.to} problem={problem} change={change} />
      </form>
      <RangeProblem id="audit-dates" problem={problem} />
      {error && (
        <Notice kind="error" announce={error}>
          {refusalWords(error)}
        </Notice>
      )}
      {entries === undefined ? (
        !error && <p role="status">Loading the audit log…</p>
      ) : entries.length === 0 ? (
        <p class="empty">Nothing recorded{filtered(filter) ? ' that matches these filters' : ' yet'}.</p>
      ) : (
        <ol class="list audit">
          {entries.map((entry) => (
            <li key={entry.id} class="audit__entry">
              <p class="audit__what">
                <strong>{actorWords(entry.actor, names)}</strong> {actionWords(entry, names)}
              </p>
              <p class="muted audit__when">
                <time dateTime={entry.at}>{when(entry.at)}</time> · from {entry.ip}
              </p>
            </li>
          ))}
        </ol>
      )}
      {cursor && (
        <p class="actions">
          <button class="button" type="button" disabled={busy} onClick={() => load(cursor)}>
            Load more
          </button>
        </p>
      )}
    </section>
  );
}
