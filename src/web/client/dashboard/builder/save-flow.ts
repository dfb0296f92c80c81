import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, api, ok } from '../api/client.js';
import type { paths } from '../api/schema.js';
import { loadStoredForm, useStoredForm } from '../forms/resource.js';
import { type Action, useAction } from '../ui/action.js';
import { bodyOf, type Draft, draftOf } from './draft.js';
import type { StoredForm } from './model.js';

/**
 * How the builder saves (API.md §5.3, §5.5). A form respondents get (live or active) is edited
 * through its working copy: Save keeps the edits aside, "Publish changes" makes them the form in
 * one step, Discard drops them; the live form is untouched till then. A form nobody gets yet
 * (draft, disabled, archived) is saved with PUT as it is. Every save sends If-Match: when someone
 * else saved meanwhile (412) the flow says so and keeps everything typed.
 */

export type WorkingCopy = paths['/forms/{id}/draft']['get']['responses'][200]['content']['application/json'];
type Status = StoredForm['status'];

/** The statuses whose form respondents get: edited through a working copy. */
const PUBLISHED: readonly Status[] = ['live', 'active'];

/** What a 412 interrupted, to do again over the version saved meanwhile. */
export type Interrupted = { kind: 'save' } | { kind: 'publish' } | { kind: 'status'; status: Status };

export interface SaveFlow extends Pick<Action, 'busy' | 'error'> {
  form: StoredForm | undefined;
  /** Why the form (or its working copy) could not be read. */
  loadError: ApiError | undefined;
  /** What the builder starts from: the working copy when there is one, else the form. */
  base: Draft | undefined;
  /** `copy`: saves go to the working copy (a published form, or one whose copy is pending). */
  mode: 'copy' | 'form';
  /** The form has a working copy saved and not yet published. */
  hasCopy: boolean;
  /** Whether `draft` differs from what was last read or saved. */
  unsaved: (draft: Draft) => boolean;
  news: string | undefined;
  interrupted: Interrupted | undefined;
  save: (draft: Draft, force?: boolean) => Promise<boolean>;
  publishChanges: (draft: Draft, force?: boolean) => Promise<boolean>;
  discard: () => Promise<boolean>;
  setStatus: (draft: Draft, status: Status, force?: boolean) => Promise<boolean>;
}

const bodyText = (draft: Draft, form: StoredForm) => JSON.stringify(bodyOf(draft, form));

async function loadWorkingCopy(id: string): Promise<WorkingCopy | null> {
  try {
    return await ok(api.GET('/forms/{id}/draft', { params: { path: { id } } }));
  } catch (caught) {
    // published or discarded in another tab since the form was read: there is none
    if (caught instanceof ApiError && caught.status === 404) return null;
    throw caught;
  }
}

export function useSaveFlow(id: string): SaveFlow {
  // read afresh, never the cache's: a save's If-Match is the version as the server has it now
  const stored = useStoredForm(id, { fresh: true });
  const form = stored.data;
  /** The working copy: undefined till known, null when there is none. */
  const [copy, setCopy] = useState<WorkingCopy | null>();
  const [copyError, setCopyError] = useState<ApiError>();
  /** The body last read or saved, to tell unsaved edits by; undefined: the base's. */
  const [savedBody, setSavedBody] = useState<string>();
  const [news, setNews] = useState<string>();
  const [interrupted, setInterrupted] = useState<Interrupted>();
  const { busy, error, run } = useAction();

  const hasDraft = form?.hasDraft;
  useEffect(() => {
    if (hasDraft === undefined || copy !== undefined) return;
    if (!hasDraft) setCopy(null);
    else loadWorkingCopy(id).then(setCopy, (caught: unknown) => setCopyError(caught as ApiError));
  }, [hasDraft, copy, id]);

  // one object while the form and copy are the same ones: the preview is drawn from it
  const base = useMemo(() => (form && copy !== undefined ? draftOf(copy ?? form) : undefined), [form, copy]);
  const mode = copy || (form && PUBLISHED.includes(form.status)) ? 'copy' : 'form';
  const baseline = savedBody ?? (base && form ? bodyText(base, form) : undefined);

  /** The form at the version the server has now (force), or as read. */
  const versionOf = async (current: StoredForm, force: boolean) =>
    force ? (await loadStoredForm(id)).version : current.version;

  /** Runs a change; a 412 is kept as what it interrupted, for "… anyway". */
  const attempt = (what: Interrupted, work: (current: StoredForm) => Promise<string>) => {
    setNews(undefined);
    return run(async () => {
      if (!form) return;
      try {
        const done = await work(form);
        setInterrupted(undefined);
        setNews(done);
      } catch (caught) {
        if (!(caught instanceof ApiError && caught.status === 412)) throw caught;
        setInterrupted(what);
      }
    });
  };

  const putForm = async (
    current: StoredForm,
    body: Parameters<typeof bodyOf>[0] | null,
    status: Status | undefined,
    force: boolean,
  ) => {
    const version = await versionOf(current, force);
    const saved = await ok(
      api.PUT('/forms/{id}', {
        params: { path: { id }, header: { 'If-Match': `"${version}"` } },
        body: { ...(body ? bodyOf(body, current) : {}), ...(status ? { status } : {}) },
      }),
    );
    // what the inbox, webhooks and analytics show of it too
    stored.set(saved);
    return saved;
  };

  const saveCopy = async (current: StoredForm, draft: Draft) => {
    const saved = await ok(
      api.PUT('/forms/{id}/draft', { params: { path: { id } }, body: bodyOf(draft, current) }),
    );
    setCopy(saved);
    if (!current.hasDraft) stored.set({ ...current, hasDraft: true });
    setSavedBody(bodyText(draft, current));
    return saved;
  };

  const save = (draft: Draft, force = false) =>
    attempt({ kind: 'save' }, async (current) => {
      if (mode === 'copy') {
        await saveCopy(current, draft);
        return 'Saved as unpublished changes: respondents still get the published form until you publish them.';
      }
      const saved = await putForm(current, draft, undefined, force);
      setSavedBody(bodyText(draft, saved));
      return 'Saved.';
    });

  const publishChanges = (draft: Draft, force = false) =>
    attempt({ kind: 'publish' }, async (current) => {
      if (!copy || unsaved(draft)) await saveCopy(current, draft);
      const version = await versionOf(current, force);
      const published = await ok(
        api.POST('/forms/{id}/draft/publish', {
          params: { path: { id }, header: { 'If-Match': `"${version}"` } },
        }),
      );
      stored.set(published);
      setCopy(null);
      setSavedBody(bodyText(draft, published));
      return `Published: respondents now get version ${published.version}.`;
    });

  const discard = () =>
    attempt({ kind: 'save' }, async (current) => {
      if (copy || current.hasDraft) {
        try {
          await ok(api.DELETE('/forms/{id}/draft', { params: { path: { id } } }));
        } catch (caught) {
          // gone already (published or discarded elsewhere): discarded all the same
          if (!(caught instanceof ApiError && caught.status === 404)) throw caught;
        }
      }
      setCopy(null);
      setSavedBody(undefined);
      stored.set({ ...current, hasDraft: false });
      return 'Changes discarded: this is the published form again.';
    });

  /** Publish, unpublish, archive: a published form's status alone (its edits stay where they are). */
  const setStatus = (draft: Draft, status: Status, force = false) =>
    attempt({ kind: 'status', status }, async (current) => {
      if (mode === 'copy') {
        const saved = await putForm(current, null, status, force);
        return `Now ${saved.status}.`;
      }
      const saved = await putForm(current, draft, status, force);
      setSavedBody(bodyText(draft, saved));
      return `Saved, and now ${saved.status}.`;
    });

  const unsaved = (draft: Draft) =>
    form !== undefined && baseline !== undefined && bodyText(draft, form) !== baseline;

  return {
    form,
    loadError: stored.data ? copyError : (stored.error ?? copyError),
    base,
    mode,
    hasCopy: Boolean(copy),
    unsaved,
    news,
    interrupted,
    busy,
    error,
    save,
    publishChanges,
    discard,
    setStatus,
  };
}
