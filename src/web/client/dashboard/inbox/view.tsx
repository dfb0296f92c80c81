import { useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { type ApiError, api, apiErrorOf, ok } from '../api/client.js';
import { useStoredForm } from '../forms/resource.js';
import { useSession } from '../session.js';
import { focusOn, Notice, useTitle } from '../ui/controls.js';
import { useWhileShown } from '../ui/polling.js';
import { answerWords } from './answers.js';
import { Detail } from './detail.js';
import { Filters, ShortcutsHelp } from './filters.js';
import { INITIAL, listReducer, neighbours } from './list-state.js';
import { type Filter, newerThan, pageOf, queryOf, rangeProblem, type Submission, when } from './model.js';
import { type InboxMove, useInboxShortcuts, useShortcutsSetting } from './shortcuts.js';

/**
 * A form's inbox (API.md §11.3): newest first, filtered by status, starred, read and date,
 * "Load more" on the keyset cursor, a response's answers by field label, its notes and a reply
 * by e-mail; read/unread and star answered at once (optimistic, rolled back with a message if
 * refused), j/k/s/u from the keyboard, delete after confirming, the CSV export of the filter.
 * Responses that arrive meanwhile are announced, not pushed in under the reader's cursor.
 */

/** How often the inbox asks whether responses arrived, while the tab is shown. */
const ARRIVALS_EVERY_MS = 15_000;
const STATUS_WORDS: Record<string, string> = {
  flagged: 'Flagged',
  quarantined: 'Quarantined',
  partial: 'In progress',
};

/** One inbox per form: another form's inbox starts afresh (the router keeps a component across ids). */
export function Inbox() {
  const { params } = useRoute();
  const id = params.id ?? '';
  return <FormInbox key={id} id={id} />;
}

function FormInbox({ id }: { id: string }) {
  const stored = useStoredForm(id);
  const form = stored.data;
  const [list, dispatch] = useReducer(listReducer, INITIAL);
  const { filter, rows, cursor, loadingMore, open, arrived, reloads } = list;
  const session = useSession();
  /** A refusal of a later page or of a change to a response (the form's own is `stored.error`). */
  const [refusal, setError] = useState<ApiError>();
  /** A refusal of the list's first page, and in which environment it was asked. */
  const [listRefusal, setListRefusal] = useState<{ environment: string; error: ApiError }>();
  /**
   * The list is read for the form's id and environment, and, until the form is read, in the
   * environment the dashboard is in (where the link to this inbox is followed): the two reads go
   * out together, not one after the other (measured in Chromium: the first rows ~20 ms sooner on
   * a fast machine). A form of another environment (a bookmark kept from it) has its list read
   * again once known; what the guess read, or why it was refused, is then never shown.
   */
  const listed = { id, environment: form?.environment ?? session.environment };
  const error =
    refusal ??
    stored.error ??
    (form && listRefusal?.environment === form.environment ? listRefusal.error : undefined);
  const [keysOn, setKeysOn] = useShortcutsSetting();
  /** The generation last asked for (the reducer drops answers for the others). */
  const generation = useRef(0);
  /** Per response, its changes in flight, sent one after the other (the server sees them in order). */
  const queues = useRef(new Map<string, Promise<unknown>>());
  /** Per response and member, how many changes were asked: only the last one's answer is shown. */
  const asked = useRef(new Map<string, number>());
  /** Where focus goes once the page has drawn what an action changed. */
  const focusTo = useRef<{ detailOf?: string; row?: string; heading?: boolean }>({});
  useTitle(form ? `Inbox: ${form.title}` : 'Inbox');
  const badRange = rangeProblem(filter);

  // read when rendered, not a frame later (see useResource); a title saved meanwhile changes nothing
  useLayoutEffect(() => {
    if (badRange) return;
    const mine = ++generation.current;
    dispatch({ type: 'reading', generation: mine });
    setListRefusal(undefined);
    ok(api.GET('/responses', { params: { query: queryOf(listed, filter) } }))
      .then(pageOf)
      .then((page) => dispatch({ type: 'read', generation: mine, page }))
      .catch((caught: unknown) => {
        dispatch({ type: 'failed', generation: mine });
        if (mine === generation.current)
          setListRefusal({ environment: listed.environment, error: apiErrorOf(caught) });
      });
  }, [listed.id, listed.environment, filter, reloads]);
  /** The rows are shown with the form's labels: not before it is read. */
  const shown = form ? rows : undefined;

  // Responses that arrive are announced (a button shows them): the list does not move under the reader.
  useWhileShown(
    async () => {
      if (!form || !rows) return;
      const mine = generation.current;
      const top = rows[0];
      try {
        const page = pageOf(
          await ok(api.GET('/responses', { params: { query: { ...queryOf(form, filter), limit: 1 } } })),
        );
        const first = page.data[0];
        if (first && (!top || newerThan(first, top))) dispatch({ type: 'arrived', generation: mine });
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
    dispatch({ type: 'loadingMore', generation: mine });
    try {
      const page = pageOf(
        await ok(api.GET('/responses', { params: { query: queryOf(form, filter, cursor) } })),
      );
      if (mine !== generation.current) return [];
      // the button goes when the last page came: focus goes to the first response it brought
      if (focusFirstNew && page.data[0]) focusTo.current = { row: page.data[0].id };
      dispatch({ type: 'readMore', generation: mine, page });
      return page.data;
    } catch (caught) {
      dispatch({ type: 'failed', generation: mine });
      if (mine === generation.current) setError(apiErrorOf(caught));
      return [];
    }
  };

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
    const show = (state: boolean) => dispatch({ type: 'changed', id: row.id, change: { [member]: state } });
    show(value);
    setError(undefined);
    const path = { params: { path: { id: row.id } } };
    const send = () =>
      member === 'read'
        ? ok(api.POST('/responses/{id}/read', { ...path, body: { read: value } }))
        : ok(api.POST('/responses/{id}/star', { ...path, body: { starred: value } }));
    const sent = (queues.current.get(row.id) ?? Promise.resolve()).catch(() => undefined).then(send);
    queues.current.set(row.id, sent);
    try {
      const answer = await sent;
      if (asked.current.get(key) === mine) show(answer[member]);
    } catch (caught) {
      if (asked.current.get(key) === mine) show(before);
      setError(apiErrorOf(caught));
    }
  };

  const show = (row: Submission) => {
    dispatch({ type: 'opened', id: row.id });
    // the detail's heading takes focus: read out first, and in view on a narrow screen (where it follows the list)
    focusTo.current = { detailOf: row.id };
    if (!row.read) void toggle(row, 'read', true);
  };

  const remove = async (row: Submission) => {
    try {
      await ok(api.DELETE('/responses/{id}', { params: { path: { id: row.id } } }));
      // focus goes to the response that takes its place in the list (or the heading, when none is left)
      const { next, previous } = neighbours(rows ?? [], row.id);
      const neighbour = next ?? previous;
      focusTo.current = neighbour ? { row: neighbour.id } : { heading: true };
      dispatch({ type: 'removed', id: row.id });
    } catch (caught) {
      setError(apiErrorOf(caught));
    }
  };

  const showArrivals = () => {
    focusTo.current = { heading: true };
    dispatch({ type: 'reloaded' });
  };

  useLayoutEffect(() => {
    const { detailOf, row, heading } = focusTo.current;
    let target: HTMLElement | null = null;
    if (detailOf && detailOf === open) target = document.getElementById('detail-title');
    else if (row) target = document.querySelector<HTMLElement>(`[data-row="${CSS.escape(row)}"]`);
    else if (heading && shown !== undefined) target = document.querySelector<HTMLElement>('main h1');
    if (!target) return;
    focusTo.current = {};
    focusOn(target);
  }, [open, shown]);

  const selected = shown?.find((row) => row.id === open);

  // the keys move among the rows shown: none before the form is read
  useInboxShortcuts(keysOn, async (move: InboxMove) => {
    if (!shown?.length) return;
    if (move === 'star' || move === 'read') {
      if (selected) void toggle(selected, move === 'star' ? 'starred' : 'read');
      return;
    }
    const { next, previous } = neighbours(shown, open);
    if (move === 'previous') {
      if (previous) show(previous);
      return;
    }
    const after = next ?? (await loadMore())[0];
    if (after) show(after);
  });

  const change = (part: Partial<Filter>) => dispatch({ type: 'filtered', change: part });
  const fieldOf = (fieldId: string) => form?.fields.find((field) => field.id === fieldId);
  const labelOf = (fieldId: string) => fieldOf(fieldId)?.label ?? fieldId;
  const count = shown?.length ?? 0;

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
          : shown === undefined
            ? 'Loading responses…'
            : `${count} ${count === 1 ? 'response' : 'responses'} listed${cursor ? ', more to load' : ''}.`}
      </p>
      {badRange || shown === undefined ? null : shown.length === 0 ? (
        <p class="empty">No responses here yet: share the form’s link, or change the filter.</p>
      ) : (
        <div class="inbox__columns">
          <ul class="inbox__list" aria-label="Responses">
            {shown.map((row) => {
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
                    {/* answers on their way (API.md §15) are nobody's to read yet: no Unread, and no alarm */}
                    {!row.read && row.status !== 'partial' && <span class="badge badge--accent">Unread</span>}
                    {row.starred && <span class="badge">Starred</span>}
                    {STATUS_WORDS[row.status] && (
                      <span class={row.status === 'partial' ? 'badge' : 'badge badge--failed'}>
                        {STATUS_WORDS[row.status]}
                      </span>
                    )}
                    <span class="inbox__when">{when(row.createdAt)}</span>
                    <span class="inbox__first">
                      {first
                        .map(([field, value]) => `${labelOf(field)}: ${answerWords(fieldOf(field), value)}`)
                        .join(' · ') || 'No answers'}
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
              addedNote={(next) => dispatch({ type: 'changed', id: next.id, change: { notes: next.notes } })}
              remove={() => remove(selected)}
            />
          )}
        </div>
      )}
      {cursor && !badRange && shown !== undefined && (
        <p>
          <button class="button" type="button" onClick={() => loadMore(true)} disabled={loadingMore}>
            {loadingMore ? 'Loading more…' : 'Load more'}
          </button>
        </p>
      )}
    </section>
  );
}
