import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { type ApiError, api, ok } from '../api/client.js';
import { Detail } from './detail.js';
import { Filters, ShortcutsHelp } from './filters.js';
import {
  type Filter,
  type InboxForm,
  NO_FILTER,
  newerThan,
  type Page,
  queryOf,
  rangeProblem,
  type Submission,
  shown,
  when,
} from './model.js';
import { type InboxMove, useInboxShortcuts, useShortcutsSetting } from './shortcuts.js';
import { focusOn, Notice, useTitle } from '../ui/controls.js';
import { useWhileShown } from '../ui/polling.js';

/**
 * A form's inbox (API.md §11.3): newest first, filtered by status, starred, read and date,
 * "Load more" on the keyset cursor, a response's answers by field label, its notes and a reply
 * by e-mail; read/unread and star answered at once (optimistic, rolled back with a message if
 * refused), j/k/s/u from the keyboard, delete after confirming, the CSV export of the filter.
 * Responses that arrive meanwhile are announced, not pushed in under the reader's cursor.
 */

/** How often the inbox asks whether responses arrived, while the tab is shown. */
const ARRIVALS_EVERY_MS = 15_000;
const STATUS_WORDS: Record<string, string> = { flagged: 'Flagged', quarantined: 'Quarantined' };

/** One inbox per form: another form's inbox starts afresh (the router keeps a component across ids). */
export function Inbox() {
  const { params } = useRoute();
  const id = params.id ?? '';
  return <FormInbox key={id} id={id} />;
}

function FormInbox({ id }: { id: string }) {
  const [form, setForm] = useState<InboxForm>();
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const [rows, setRows] = useState<Submission[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [open, setOpen] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [arrived, setArrived] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [keysOn, setKeysOn] = useShortcutsSetting();
  /** Each list read anew (filter, reload) is a new generation: answers for an older one are dropped. */
  const generation = useRef(0);
  /** Per response, its changes in flight, sent one after the other (the server sees them in order). */
  const queues = useRef(new Map<string, Promise<unknown>>());
  /** Per response and member, how many changes were asked: only the last one's answer is shown. */
  const asked = useRef(new Map<string, number>());
  /** Where focus goes once the page has drawn what an action changed. */
  const focusTo = useRef<{ detailOf?: string; row?: string; heading?: boolean }>({});
  useTitle(form ? `Inbox: ${form.title}` : 'Inbox');
  const badRange = rangeProblem(filter);

  useEffect(() => {
    let current = true;
    ok(api.GET('/forms/{id}', { params: { path: { id } } }))
      .then((loaded) => current && setForm(loaded as InboxForm))
      .catch((caught: ApiError) => current && setError(caught));
    return () => {
      current = false;
    };
  }, [id]);

  useEffect(() => {
    if (!form || badRange) return;
    const mine = ++generation.current;
    setRows(undefined);
    setArrived(false);
    setLoadingMore(false);
    ok(api.GET('/responses', { params: { query: queryOf(form, filter) } }))
      .then((answer) => {
        if (mine !== generation.current) return;
        const page = answer as Page;
        setRows(page.data);
        setCursor(page.nextCursor);
      })
      .catch((caught: ApiError) => mine === generation.current && setError(caught));
  }, [form, filter, reloads]);

  // Responses that arrive are announced (a button shows them): the list does not move under the reader.
  useWhileShown(
    async () => {
      if (!form || !rows) return;
      const mine = generation.current;
      const top = rows[0];
      try {
        const page = (await ok(
          api.GET('/responses', { params: { query: { ...queryOf(form, filter), limit: 1 } } }),
        )) as Page;
        const first = page.data[0];
        if (mine === generation.current && first && (!top || newerThan(first, top))) setArrived(true);
      } catch {
        // the next look asks again; the list itself is unchanged
      }
    },
    ARRIVALS_EVERY_MS,
    Boolean(form && rows && !badRange && !arrived),
  );

  /** The next page on the cursor, appended; its rows (none if the list changed meanwhile). */
  const loadMore = async (focusFirstNew = false): Promise<Submission[]> => {
    if (!cursor || !form || loadingMore) return [];
    const mine = generation.current;
    setLoadingMore(true);
    try {
      const page = (await ok(
        api.GET('/responses', { params: { query: queryOf(form, filter, cursor) } }),
      )) as Page;
      if (mine !== generation.current) return [];
      // the button goes when the last page came: focus goes to the first response it brought
      if (focusFirstNew && page.data[0]) focusTo.current = { row: page.data[0].id };
      setRows((list) => [...(list ?? []), ...page.data]);
      setCursor(page.nextCursor);
      return page.data;
    } catch (caught) {
      if (mine === generation.current) setError(caught as ApiError);
      return [];
    } finally {
      if (mine === generation.current) setLoadingMore(false);
    }
  };

  const setMember = (rowId: string, member: 'read' | 'starred', value: boolean) =>
    setRows((list) => list?.map((item) => (item.id === rowId ? { ...item, [member]: value } : item)));

  /**
   * Read or star at once on the page. The changes to one response go to the server one after
   * the other; the last one asked decides what is shown: the server's answer, or, refused, the
   * state before it (and the server's words).
   */
  const toggle = async (row: Submission, member: 'read' | 'starred', value = !row[member]) => {
    const before = row[member];
    const key = `${row.id}:${member}`;
    const mine = (asked.current.get(key) ?? 0) + 1;
    asked.current.set(key, mine);
    setMember(row.id, member, value);
    setError(undefined);
    const path = { params: { path: { id: row.id } } };
    const send = () =>
      member === 'read'
        ? ok(api.POST('/responses/{id}/read', { ...path, body: { read: value } }))
        : ok(api.POST('/responses/{id}/star', { ...path, body: { starred: value } }));
    const sent = (queues.current.get(row.id) ?? Promise.resolve()).catch(() => undefined).then(send);
    queues.current.set(row.id, sent);
    try {
      const answer = (await sent) as Submission;
      if (asked.current.get(key) === mine) setMember(row.id, member, answer[member]);
    } catch (caught) {
      if (asked.current.get(key) === mine) setMember(row.id, member, before);
      setError(caught as ApiError);
    }
  };

  const show = (row: Submission) => {
    setOpen(row.id);
    // the detail's heading takes focus: read out first, and in view on a narrow screen (where it follows the list)
    focusTo.current = { detailOf: row.id };
    if (!row.read) void toggle(row, 'read', true);
  };

  const remove = async (row: Submission) => {
    try {
      await ok(api.DELETE('/responses/{id}', { params: { path: { id: row.id } } }));
      const list = rows ?? [];
      const at = list.findIndex((item) => item.id === row.id);
      // focus goes to the response that takes its place in the list (or the heading, when none is left)
      const neighbour = list[at + 1] ?? list[at - 1];
      focusTo.current = neighbour ? { row: neighbour.id } : { heading: true };
      setRows((current) => current?.filter((item) => item.id !== row.id));
      setOpen(undefined);
    } catch (caught) {
      setError(caught as ApiError);
    }
  };

  const showArrivals = () => {
    setOpen(undefined);
    focusTo.current = { heading: true };
    setReloads((count) => count + 1);
  };

  useLayoutEffect(() => {
    const { detailOf, row, heading } = focusTo.current;
    let target: HTMLElement | null = null;
    if (detailOf && detailOf === open) target = document.getElementById('detail-title');
    else if (row) target = document.querySelector<HTMLElement>(`[data-row="${CSS.escape(row)}"]`);
    else if (heading && rows !== undefined) target = document.querySelector<HTMLElement>('main h1');
    if (!target) return;
    focusTo.current = {};
    focusOn(target);
  }, [open, rows]);

  const selected = rows?.find((row) => row.id === open);

  useInboxShortcuts(keysOn, async (move: InboxMove) => {
    if (!rows?.length) return;
    if (move === 'star' || move === 'read') {
      if (selected) void toggle(selected, move === 'star' ? 'starred' : 'read');
      return;
    }
    const at = rows.findIndex((row) => row.id === open);
    if (move === 'previous') {
      if (at > 0) show(rows[at - 1] as Submission);
      return;
    }
    const next = at + 1 < rows.length ? rows[at + 1] : (await loadMore())[0];
    if (next) show(next);
  });

  const change = (part: Partial<Filter>) => {
    setOpen(undefined);
    setFilter({ ...filter, ...part });
  };
  const labelOf = (fieldId: string) => form?.fields.find((field) => field.id === fieldId)?.label ?? fieldId;
  const count = rows?.length ?? 0;

  return (
    <section class="view inbox">
      <h1>Inbox{form ? `: ${form.title}` : ''}</h1>
      {error && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      <Filters form={form} filter={filter} change={change} />
      <ShortcutsHelp on={keysOn} setOn={setKeysOn} />
      {arrived && (
        <Notice kind="info">
          New responses have arrived.{' '}
          <button class="button button--small" type="button" onClick={showArrivals}>
            Show new responses
          </button>
        </Notice>
      )}
      {/* one status that stays in the page, so each new list is read out */}
      <p class="muted inbox__count" role="status">
        {badRange
          ? ''
          : rows === undefined
            ? 'Loading responses…'
            : `${count} ${count === 1 ? 'response' : 'responses'} listed${cursor ? ', more to load' : ''}.`}
      </p>
      {badRange || rows === undefined ? null : rows.length === 0 ? (
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
                    data-row={row.id}
                    aria-current={open === row.id ? 'true' : undefined}
                    onClick={() => show(row)}
                  >
                    {!row.read && <span class="badge badge--accent">Unread</span>}
                    {row.starred && <span class="badge">Starred</span>}
                    {STATUS_WORDS[row.status] && (
                      <span class="badge badge--failed">{STATUS_WORDS[row.status]}</span>
                    )}
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
              key={selected.id}
              form={form}
              submission={selected}
              toggle={(member) => toggle(selected, member)}
              addedNote={(next) =>
                setRows((list) =>
                  list?.map((item) => (item.id === next.id ? { ...item, notes: next.notes } : item)),
                )
              }
              remove={() => remove(selected)}
            />
          )}
        </div>
      )}
      {cursor && !badRange && rows !== undefined && (
        <p>
          <button class="button" type="button" onClick={() => loadMore(true)} disabled={loadingMore}>
            {loadingMore ? 'Loading more…' : 'Load more'}
          </button>
        </p>
      )}
    </section>
  );
}
