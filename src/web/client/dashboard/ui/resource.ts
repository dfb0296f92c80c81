import { useCallback, useLayoutEffect, useReducer, useRef } from 'preact/hooks';
import { type ApiError, apiErrorOf } from '../api/client.js';

/**
 * What the views read from the API, kept per key ("form:frm_…", "keys:development") and shared:
 * a view shows at once what another view (or its own last visit) read under the same key, and
 * reads it again behind it; two views asking at once share one request; a change one view makes
 * (`set`) is what every view of the key shows. The cache lives as long as the page, and is
 * emptied when the signed-in user or the workspace changes (`forgetCached`), so nobody sees
 * another's data, nor one workspace's data in another.
 */

interface Entry {
  data?: unknown;
  error?: ApiError;
  /** The read under way, shared by everyone who asks meanwhile. */
  reading?: Promise<void>;
  /** Bumped by every `set` and `forgetCached`: a read that started before one is dropped. */
  version: number;
  listeners: Set<() => void>;
}

const entries = new Map<string, Entry>();

function entryOf(key: string): Entry {
  let entry = entries.get(key);
  if (!entry) {
    entry = { version: 0, listeners: new Set() };
    entries.set(key, entry);
  }
  return entry;
}

const notify = (entry: Entry) => {
  for (const listener of entry.listeners) listener();
};

/**
 * The same answer as before keeps the same object: views that depend on it are not run again.
 * (What is kept is what the API answered, JSON: a Map or a Date would all look alike here.)
 */
const sameOr = (before: unknown, after: unknown): unknown =>
  before !== undefined && JSON.stringify(before) === JSON.stringify(after) ? before : after;

function read(key: string, load: () => Promise<unknown>): Promise<void> {
  const entry = entryOf(key);
  if (entry.reading) return entry.reading;
  const version = entry.version;
  const reading: Promise<void> = load()
    .then(
      (data) => {
        if (entry.version !== version) return;
        entry.data = sameOr(entry.data, data);
        entry.error = undefined;
      },
      (caught: unknown) => {
        if (entry.version === version) entry.error = apiErrorOf(caught);
      },
    )
    .finally(() => {
      if (entry.reading === reading) entry.reading = undefined;
      notify(entry);
    });
  entry.reading = reading;
  // the views show that it is under way (and see it end, even when nothing changed)
  notify(entry);
  return reading;
}

/** Forgets what an entry holds; a read under way for it is dropped when it answers. */
function clear(entry: Entry): void {
  entry.version++;
  entry.reading = undefined;
  entry.data = undefined;
  entry.error = undefined;
}

/** Puts what a change answered under `key`, for every view of it (a read under way is dropped). */
export function setCached<T>(key: string, data: T | ((current: T | undefined) => T)): void {
  const entry = entryOf(key);
  entry.version++;
  entry.reading = undefined;
  entry.data = typeof data === 'function' ? (data as (current: T | undefined) => T)(entry.data as T) : data;
  entry.error = undefined;
  notify(entry);
}

/**
 * Drops what the keys starting with `prefix` hold (all of them for ''): the next view reads them
 * afresh. `keep`: a key left as it is (the person's list of workspaces, when they switch).
 */
export function forgetCached(prefix = '', { keep }: { keep?: string } = {}): void {
  for (const [key, entry] of entries) {
    if (!key.startsWith(prefix) || key === keep) continue;
    clear(entry);
    if (entry.listeners.size === 0) entries.delete(key);
    else notify(entry);
  }
}

export interface Resource<T> {
  /** What was read (maybe by an earlier view, while it is read again), or undefined before. */
  data: T | undefined;
  /** Why the last read failed, until one succeeds. */
  error: ApiError | undefined;
  /** Whether a read is under way. */
  loading: boolean;
  /** Reads again (after a change whose answer is not the resource itself). */
  reload: () => Promise<void>;
  /** Replaces what every view of the key shows, such as after a change the view made. */
  set: (data: T | ((current: T | undefined) => T)) => void;
}

/**
 * The resource under `key` (none when `key` is undefined: not yet known what to ask), read with
 * `load` when the view shows it and whenever the key changes. `fresh`: what the cache holds is
 * not shown, only the view's own read (the builder, whose save needs the version as it is now).
 */
export function useResource<T>(
  key: string | undefined,
  load: () => Promise<T>,
  { fresh = false }: { fresh?: boolean } = {},
): Resource<T> {
  const [, changed] = useReducer<number, void>((count) => count + 1, 0);
  const latestLoad = useRef(load);
  latestLoad.current = load;
  // A layout effect: the read is asked for as soon as the view is rendered, not a frame later
  // after the browser has painted it (Preact runs plain effects after the next frame: each read
  // that depends on another waited ~16 ms more; measured in Chromium on an inbox's first load).
  useLayoutEffect(() => {
    if (key === undefined) return;
    const entry = entryOf(key);
    entry.listeners.add(changed);
    if (fresh) clear(entry);
    void read(key, () => latestLoad.current());
    // what happened to the key before this view listened (a read that ended meanwhile)
    changed();
    return () => {
      entry.listeners.delete(changed);
    };
  }, [key, fresh]);
  // the same functions while the key is: they may be handed down, and named as dependencies
  const reload = useCallback(
    () => (key === undefined ? Promise.resolve() : read(key, () => latestLoad.current())),
    [key],
  );
  const set = useCallback(
    (data: T | ((current: T | undefined) => T)) => {
      if (key !== undefined) setCached(key, data);
    },
    [key],
  );
  const entry = key === undefined ? undefined : entries.get(key);
  return {
    data: entry?.data as T | undefined,
    error: entry?.error,
    loading: entry?.reading !== undefined,
    reload,
    set,
  };
}
