import { type Filter, NO_FILTER, type Page, type Submission } from './model.js';

/**
 * What the inbox's list is at a moment, and every way it changes, as one reducer (tested apart
 * from any page): the filter, the responses listed and the cursor after them, "Load more" under
 * way, the response open, and whether newer ones arrived. Each list read anew (a filter, "Show
 * new responses") is a generation: an answer for an older one arrives too late and is dropped,
 * so a slow page never lands under another filter.
 */
export interface ListState {
  filter: Filter;
  /** The generation the list shows or is reading; answers name the one they were asked for. */
  generation: number;
  /** undefined while the first page is read. */
  rows: Submission[] | undefined;
  cursor: string | null;
  loadingMore: boolean;
  /** The response shown beside the list. */
  open: string | undefined;
  /** Newer responses than the first listed arrived (announced, not pushed under the reader). */
  arrived: boolean;
  /** Bumped by "Show new responses": the same filter read anew. */
  reloads: number;
}

export type ListEvent =
  /** A filter changed: the open response is closed, the list read anew. */
  | { type: 'filtered'; change: Partial<Filter> }
  /** "Show new responses": the open response closed, the list read anew with the same filter. */
  | { type: 'reloaded' }
  /** The list is read anew, as generation `generation`. */
  | { type: 'reading'; generation: number }
  | { type: 'read'; generation: number; page: Page }
  | { type: 'loadingMore'; generation: number }
  | { type: 'readMore'; generation: number; page: Page }
  /** A read of `generation` failed (the view shows why). */
  | { type: 'failed'; generation: number }
  | { type: 'arrived'; generation: number }
  | { type: 'opened'; id: string | undefined }
  /** What the page shows of one response changed (read, star: at once; notes: the server's). */
  | { type: 'changed'; id: string; change: Partial<Pick<Submission, 'read' | 'starred' | 'notes'>> }
  | { type: 'removed'; id: string };

export const INITIAL: ListState = {
  filter: NO_FILTER,
  generation: 0,
  rows: undefined,
  cursor: null,
  loadingMore: false,
  open: undefined,
  arrived: false,
  reloads: 0,
};

export function listReducer(state: ListState, event: ListEvent): ListState {
  switch (event.type) {
    case 'filtered':
      return { ...state, filter: { ...state.filter, ...event.change }, open: undefined };
    case 'reloaded':
      return { ...state, reloads: state.reloads + 1, open: undefined };
    case 'reading':
      return { ...state, generation: event.generation, rows: undefined, loadingMore: false, arrived: false };
    case 'opened':
      return { ...state, open: event.id };
    case 'changed':
      return {
        ...state,
        rows: state.rows?.map((row) => (row.id === event.id ? { ...row, ...event.change } : row)),
      };
    case 'removed':
      return {
        ...state,
        rows: state.rows?.filter((row) => row.id !== event.id),
        open: state.open === event.id ? undefined : state.open,
      };
  }
  // the rest answer a read: one for an older generation is dropped
  if (event.generation !== state.generation) return state;
  switch (event.type) {
    case 'read':
      return { ...state, rows: event.page.data, cursor: event.page.nextCursor };
    case 'loadingMore':
      return { ...state, loadingMore: true };
    case 'readMore':
      return {
        ...state,
        rows: [...(state.rows ?? []), ...event.page.data],
        cursor: event.page.nextCursor,
        loadingMore: false,
      };
    case 'failed':
      return { ...state, loadingMore: false };
    case 'arrived':
      return { ...state, arrived: true };
  }
}

/** The response after `id` in the list (the first when none is open), and the one before it. */
export function neighbours(
  rows: readonly Submission[],
  id: string | undefined,
): { next: Submission | undefined; previous: Submission | undefined } {
  const at = rows.findIndex((row) => row.id === id);
  return { next: rows[at + 1], previous: at > 0 ? rows[at - 1] : undefined };
}
