import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { type ApiError, api, ok } from '../api/client.js';
import type { paths } from '../api/schema.js';
import { Notice, useTitle } from '../ui/controls.js';

/**
 * A form's inbox (API.md §11.3, the start of issue 13): newest first, filtered by status,
 * starred and read, "Load more" on the keyset cursor, a submission's answers by field label,
 * read/unread and star answered at once (optimistic, rolled back with a message if refused),
 * delete after confirming, and the CSV export of the current filter.
 */

type Page = Exclude<paths['/responses']['get']['responses'][200]['content']['application/json'], string>;
type Submission = Page['data'][number];
type Status = '' | 'accepted' | 'flagged' | 'quarantined';
interface Filter {
  status: Status;
  starred: boolean;
  read: '' | 'true' | 'false';
}

const when = (iso: string) => new Date(iso).toLocaleString();
const shown = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value));

export function Inbox() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const [form, setForm] = useState<{
    title: string;
    environment: string;
    fields: Array<{ id: string; label: string }>;
  }>();
  const [filter, setFilter] = useState<Filter>({ status: '', starred: false, read: '' });
  const [rows, setRows] = useState<Submission[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [open, setOpen] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [confirming, setConfirming] = useState(false);
  useTitle(form ? `Inbox: ${form.title}` : 'Inbox');

  useEffect(() => {
    ok(api.GET('/forms/{id}', { params: { path: { id } } }))
      .then((loaded) => setForm(loaded as typeof form))
      .catch((caught: ApiError) => setError(caught));
  }, [id]);

  const query = (after?: string) => ({
    form_id: id,
    environment: form?.environment,
    limit: 50,
    ...(after ? { cursor: after } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.starred ? { starred: true } : {}),
    ...(filter.read ? { read: filter.read === 'true' } : {}),
  });

  useEffect(() => {
    if (!form) return;
    let current = true;
    setRows(undefined);
    ok(api.GET('/responses', { params: { query: query() } }))
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
  }, [form, filter]);

  const more = async () => {
    if (!cursor) return;
    try {
      const page = (await ok(api.GET('/responses', { params: { query: query(cursor) } }))) as Page;
      setRows([...(rows ?? []), ...page.data]);
      setCursor(page.nextCursor);
    } catch (caught) {
      setError(caught as ApiError);
    }
  };

  /** Read or star at once on the page; the server's refusal puts it back, and says so. */
  const toggle = async (row: Submission, member: 'read' | 'starred') => {
    const next = !row[member];
    const put = (value: boolean) =>
      setRows((list) => list?.map((item) => (item.id === row.id ? { ...item, [member]: value } : item)));
    put(next);
    setError(undefined);
    try {
      const path = { params: { path: { id: row.id } } };
      if (member === 'read') await ok(api.POST('/responses/{id}/read', { ...path, body: { read: next } }));
      else await ok(api.POST('/responses/{id}/star', { ...path, body: { starred: next } }));
    } catch (caught) {
      put(!next);
      setError(caught as ApiError);
    }
  };

  const remove = async (row: Submission) => {
    try {
      await ok(api.DELETE('/responses/{id}', { params: { path: { id: row.id } } }));
      setRows((list) => list?.filter((item) => item.id !== row.id));
      setOpen(undefined);
      setConfirming(false);
    } catch (caught) {
      setError(caught as ApiError);
    }
  };

  const labelOf = (fieldId: string) => form?.fields.find((field) => field.id === fieldId)?.label ?? fieldId;
  const selected = rows?.find((row) => row.id === open);
  const csv = `/responses?${new URLSearchParams(
    Object.entries({ ...query(), format: 'csv', limit: undefined }).flatMap(([key, value]) =>
      value === undefined ? [] : [[key, String(value)]],
    ),
  )}`;

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
            onChange={(event) => setFilter({ ...filter, status: event.currentTarget.value as Status })}
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
            onChange={(event) => setFilter({ ...filter, read: event.currentTarget.value as Filter['read'] })}
          >
            <option value="">Read or not</option>
            <option value="false">Unread</option>
            <option value="true">Read</option>
          </select>
        </div>
        <div class="tick">
          <input
            id="filter-starred"
            type="checkbox"
            checked={filter.starred}
            onChange={(event) => setFilter({ ...filter, starred: event.currentTarget.checked })}
          />
          <label for="filter-starred">Starred only</label>
        </div>
        <a class="button" href={csv} download>
          Export CSV
        </a>
      </div>
      {rows === undefined ? (
        <p role="status">Loading responses…</p>
      ) : rows.length === 0 ? (
        <p class="empty">No responses here yet: share the form’s link, or change the filter.</p>
      ) : (
        <div class="inbox__columns">
          <ul class="inbox__list">
            {rows.map((row) => {
              const first = Object.entries(row.answers).slice(0, 2);
              return (
                <li key={row.id} class={`inbox__row${row.read ? '' : ' inbox__row--unread'}`}>
                  <button
                    class="inbox__open"
                    type="button"
                    aria-pressed={open === row.id}
                    onClick={() => {
                      setOpen(row.id);
                      setConfirming(false);
                      if (!row.read) void toggle(row, 'read');
                    }}
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
          {selected && (
            <article class="inbox__detail" aria-labelledby="detail-title">
              <h2 id="detail-title">Response of {when(selected.createdAt)}</h2>
              <p class="muted">
                {selected.status}
                {selected.read ? ' · read' : ' · unread'}
              </p>
              <dl class="answers">
                {Object.entries(selected.answers).map(([field, value]) => (
                  <div key={field}>
                    <dt>{labelOf(field)}</dt>
                    <dd>{shown(value)}</dd>
                  </div>
                ))}
              </dl>
              <p class="actions">
                <button class="button" type="button" onClick={() => toggle(selected, 'read')}>
                  {selected.read ? 'Mark unread' : 'Mark read'}
                </button>
                <button
                  class="button"
                  type="button"
                  aria-pressed={selected.starred}
                  onClick={() => toggle(selected, 'starred')}
                >
                  {selected.starred ? 'Unstar' : 'Star'}
                </button>
                {confirming ? (
                  <span class="confirm">
                    Delete this response for good?{' '}
                    <button class="button button--danger" type="button" onClick={() => remove(selected)}>
                      Delete response
                    </button>
                    <button class="button" type="button" onClick={() => setConfirming(false)}>
                      Keep it
                    </button>
                  </span>
                ) : (
                  <button class="button button--danger" type="button" onClick={() => setConfirming(true)}>
                    Delete
                  </button>
                )}
              </p>
            </article>
          )}
        </div>
      )}
      {cursor && (
        <p>
          <button class="button" type="button" onClick={more}>
            Load more
          </button>
        </p>
      )}
    </section>
  );
}
