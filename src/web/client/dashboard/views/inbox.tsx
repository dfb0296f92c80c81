import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { type ApiError, api, ok } from '../api/client.js';
import { Detail } from '../inbox/detail.js';
import {
  csvHref,
  type Filter,
  type InboxForm,
  NO_FILTER,
  type Page,
  queryOf,
  rangeProblem,
  type Status,
  type Submission,
  shown,
  when,
} from '../inbox/model.js';
import { type InboxMove, SHORTCUTS, useInboxShortcuts } from '../inbox/shortcuts.js';
import { Notice, useTitle } from '../ui/controls.js';

/**
 * A form's inbox (API.md §11.3): newest first, filtered by status, starred, read and date,
 * "Load more" on the keyset cursor, a response's answers by field label, its notes and a reply
 * by e-mail; read/unread and star answered at once (optimistic, rolled back with a message if
 * refused), j/k/s/u from the keyboard, delete after confirming, the CSV export of the filter.
 * Responses that arrive meanwhile are announced, not pushed in under the reader's cursor.
 */

/** How often the inbox asks whether responses arrived, while the tab is shown. */
const ARRIVALS_EVERY_MS = 15_000;

export function Inbox() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const [form, setForm] = useState<InboxForm>();
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const [rows, setRows] = useState<Submission[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [open, setOpen] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [arrived, setArrived] = useState(false);
  const [reloads, setReloads] = useState(0);
  const detailHeading = useRef<string | undefined>(undefined);
  useTitle(form ? `Inbox: ${form.title}` : 'Inbox');
  const badRange = rangeProblem(filter);

  useEffect(() => {
    ok(api.GET('/forms/{id}', { params: { path: { id } } }))
      .then((loaded) => setForm(loaded as InboxForm))
      .catch((caught: ApiError) => setError(caught));
  }, [id]);

  useEffect(() => {
    if (!form || badRange) return;
    let current = true;
    setRows(undefined);
    setArrived(false);
    ok(api.GET('/responses', { params: { query: queryOf(form, filter) } }))
      .then((answer) => {
        const page = answer as Page;
        if (!current) return;
        setRows(page.data);
        setCursor(page.nextCursor);
      })
      .catch((caught: ApiError) => current && setError(caught));
    return () => {
      current = false;
    };
  }, [form, filter, reloads]);

  // Responses that arrive are announced (a button shows them): the list does not move under the reader.
  const newest = rows?.[0]?.id;
  useEffect(() => {
    if (!form || rows === undefined || badRange || arrived) return;
    const look = () => {
      if (document.visibilityState !== 'visible') return;
      ok(api.GET('/responses', { params: { query: { ...queryOf(form, filter), limit: 1 } } }))
        .then((answer) => {
          const first = (answer as Page).data[0];
          if (first && first.id !== newest && !rows.some((row) => row.id === first.id)) setArrived(true);
        })
        .catch(() => undefined);
    };
    const timer = setInterval(look, ARRIVALS_EVERY_MS);
    document.addEventListener('visibilitychange', look);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', look);
    };
  }, [form, filter, newest, arrived, rows === undefined]);

  const more = async (): Promise<Submission[]> => {
    if (!cursor || !form) return rows ?? [];
    try {
      const page = (await ok(
        api.GET('/responses', { params: { query: queryOf(form, filter, cursor) } }),
      )) as Page;
      const next = [...(rows ?? []), ...page.data];
      setRows(next);
      setCursor(page.nextCursor);
      return next;
    } catch (caught) {
      setError(caught as ApiError);
      return rows ?? [];
    }
  };

  const put = (next: Submission) =>
    setRows((list) => list?.map((item) => (item.id === next.id ? next : item)));

  /** Read or star at once on the page; the server's refusal puts it back, and says so. */
  const toggle = async (row: Submission, member: 'read' | 'starred', value = !row[member]) => {
    const set = (to: boolean) =>
      setRows((list) => list?.map((item) => (item.id === row.id ? { ...item, [member]: to } : item)));
    set(value);
    setError(undefined);
    try {
      const path = { params: { path: { id: row.id } } };
      if (member === 'read') await ok(api.POST('/responses/{id}/read', { ...path, body: { read: value } }));
      else await ok(api.POST('/responses/{id}/star', { ...path, body: { starred: value } }));
    } catch (caught) {
      set(row[member]);
      setError(caught as ApiError);
    }
  };

  const show = (row: Submission, focus: boolean) => {
    setOpen(row.id);
    if (!row.read) void toggle(row, 'read', true);
    // the detail's heading takes focus: read out first, and in view on a narrow screen (where it follows the list)
    if (focus) detailHeading.current = row.id;
  };
  useLayoutEffect(() => {
    if (!open || detailHeading.current !== open) return;
    detailHeading.current = undefined;
    const heading = document.getElementById('detail-title');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
  }, [open]);

  const remove = async (row: Submission) => {
    try {
      await ok(api.DELETE('/responses/{id}', { params: { path: { id: row.id } } }));
      setRows((list) => list?.filter((item) => item.id !== row.id));
      setOpen(undefined);
    } catch (caught) {
      setError(caught as ApiError);
    }
  };

  const selected = rows?.find((row) => row.id === open);

  useInboxShortcuts(async (move: InboxMove) => {
    if (!rows?.length) return;
    if (move === 'star' || move === 'read') {
      if (selected) void toggle(selected, move === 'star' ? 'starred' : 'read');
      return;
    }
    const at = rows.findIndex((row) => row.id === open);
    if (move === 'previous') {
      if (at > 0) show(rows[at - 1] as Submission, true);
      return;
    }
    const list = at === rows.length - 1 && cursor ? await more() : rows;
    const next = list[at + 1];
    if (next) show(next, true);
  });

  const change = (part: Partial<Filter>) => {
    setOpen(undefined);
    setFilter({ ...filter, ...part });
  };
  const labelOf = (fieldId: string) => form?.fields.find((field) => field.id === fieldId)?.label ?? fieldId;

  return (
    <section class="view inbox">
      <h1>Inbox{form ? `: ${form.title}` : ''}</h1>
      {error && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      <div class="inbox__filters">
        <div class="control-row">
          <label for="filter-status">Show</label>
          <select
            id="filter-status"
            value={filter.status}
            onChange={(event) => change({ status: event.currentTarget.value as Status })}
          >
            <option value="">Accepted and flagged</option>
            <option value="accepted">Accepted</option>
            <option value="flagged">Flagged as spam</option>
            <option value="quarantined">Quarantined</option>
          </select>
        </div>
        <div class="control-row">
          <label for="filter-read">Read</label>
          <select
            id="filter-read"
            value={filter.read}
            onChange={(event) => change({ read: event.currentTarget.value as Filter['read'] })}
          >
            <option value="">Read or not</option>
            <option value="false">Unread</option>
            <option value="true">Read</option>
          </select>
        </div>
        <div class="control-row">
          <label for="filter-from">From</label>
          <input
            id="filter-from"
            type="date"
            value={filter.from}
            max={filter.to || undefined}
            aria-describedby={badRange ? 'filter-range-error' : undefined}
            onChange={(event) => change({ from: event.currentTarget.value })}
          />
        </div>
        <div class="control-row">
          <label for="filter-to">To</label>
          <input
            id="filter-to"
            type="date"
            value={filter.to}
            min={filter.from || undefined}
            aria-invalid={badRange ? 'true' : undefined}
            aria-describedby={badRange ? 'filter-range-error' : undefined}
            onChange={(event) => change({ to: event.currentTarget.value })}
          />
        </div>
        <div class="tick">
          <input
            id="filter-starred"
            type="checkbox"
            checked={filter.starred}
            onChange={(event) => change({ starred: event.currentTarget.checked })}
          />
          <label for="filter-starred">Starred only</label>
        </div>
        {form && !badRange && (
          <a class="button" href={csvHref(form, filter)} download>
            Export CSV
          </a>
        )}
      </div>
      {badRange && (
        <p class="error" id="filter-range-error" role="alert">
          {badRange} Change one of the dates.
        </p>
      )}
      <details class="inbox__keys">
        <summary>Keyboard shortcuts</summary>
        <dl>
          {SHORTCUTS.map((shortcut) => (
            <div key={shortcut.key}>
              <dt>
                <kbd>{shortcut.key}</kbd>
              </dt>
              <dd>{shortcut.words}</dd>
            </div>
          ))}
        </dl>
      </details>
      {arrived && (
        <Notice kind="info">
          New responses have arrived.{' '}
          <button class="button button--small" type="button" onClick={() => setReloads(reloads + 1)}>
            Show new responses
          </button>
        </Notice>
      )}
      {badRange ? null : rows === undefined ? (
        <p role="status">Loading responses…</p>
      ) : rows.length === 0 ? (
        <p class="empty">No responses here yet: share the form’s link, or change the filter.</p>
      ) : (
        <div class="inbox__columns">
          <ul class="inbox__list" aria-label="Responses">
            {rows.map((row) => {
              const first = Object.entries(row.answers).slice(0, 2);
              return (
                <li key={row.id} class={`inbox__row${row.read ? '' : ' inbox__row--unread'}`}>
                  <button
                    class="inbox__open"
                    type="button"
                    aria-pressed={open === row.id}
                    onClick={() => show(row, true)}
                  >
                    {!row.read && <span class="badge badge--accent">Unread</span>}
                    {row.starred && <span class="badge">Starred</span>}
                    <span class="inbox__when">{when(row.createdAt)}</span>
                    <span class="inbox__first">
                      {first.map(([field, value]) => `${labelOf(field)}: ${shown(value)}`).join(' · ') ||
                        'No answers'}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
          {selected && form && (
            <Detail
              form={form}
              submission={selected}
              toggle={(member) => toggle(selected, member)}
              replace={put}
              remove={() => remove(selected)}
            />
          )}
        </div>
      )}
      {cursor && !badRange && rows !== undefined && (
        <p>
          <button class="button" type="button" onClick={more}>
            Load more
          </button>
        </p>
      )}
    </section>
  );
}
