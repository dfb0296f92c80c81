import { useEffect } from 'preact/hooks';

/**
 * Leaving a view with unsaved edits asks first (the builder's): a link inside the dashboard (the
 * header's "Forms", say) and the browser's Back ask with the browser's own confirm; closing or
 * reloading the tab gets the browser's "Leave site?" (`beforeunload`, whose words a page cannot
 * set).
 *
 * preact-iso routes on `click` and `popstate` listeners of its own on `window`, ignoring
 * `defaultPrevented`, and a router's listener that runs first has drawn the next view before the
 * next listener runs. So the guard's listeners are added before the router's (`installLeaveGuard`,
 * called as app.tsx loads), and stop the event when the person chooses to stay.
 */

interface Guard {
  question: string;
  /** The address of the view guarded, put back when Back is declined. */
  href: string;
}

/** The one view guarded now (a view at a time is shown), with unsaved edits; undefined: none. */
let active: Guard | undefined;

const path = (url: { pathname: string; search: string }) => url.pathname + url.search;

/** Whether the person stays (the question asked and declined). */
const stays = () => active !== undefined && !window.confirm(active.question);

function onClick(event: MouseEvent): void {
  if (!active) return;
  const destination = inAppDestination(event);
  if (destination === undefined || destination === path(location) || !stays()) return;
  event.preventDefault();
  event.stopImmediatePropagation();
}

function onPopState(event: PopStateEvent): void {
  if (!active) return;
  const guarded = new URL(active.href);
  // a tab's hash moving inside the view guarded is no leaving
  if (path(location) === path(guarded) || !stays()) return;
  event.stopImmediatePropagation();
  history.pushState(null, '', active.href);
}

function onBeforeUnload(event: BeforeUnloadEvent): void {
  if (!active) return;
  event.preventDefault();
  // older browsers ask only when returnValue is set
  event.returnValue = '';
}

let installed = false;

/** Adds the listeners, once: before the router's, so they run first. */
export function installLeaveGuard(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('click', onClick, true);
  window.addEventListener('popstate', onPopState, true);
  window.addEventListener('beforeunload', onBeforeUnload);
}

/** While `unsaved`, leaving the view asks `question` first. */
export function useLeaveGuard(unsaved: boolean, question: string): void {
  useEffect(() => {
    if (!unsaved) return;
    const guard: Guard = { question, href: location.href };
    active = guard;
    return () => {
      if (active === guard) active = undefined;
    };
  }, [unsaved, question]);
}

/**
 * The address a click would take the dashboard to, as preact-iso decides it (a plain left click
 * on a same-origin link opening in this tab), or undefined when the click is no such navigation.
 */
function inAppDestination(event: MouseEvent): string | undefined {
  if (event.defaultPrevented || event.button !== 0) return undefined;
  if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return undefined;
  const link = event
    .composedPath()
    .find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
  if (!link?.href || link.origin !== location.origin || link.download) return undefined;
  if (!/^(_?self)?$/i.test(link.target) || link.getAttribute('href')?.startsWith('#')) return undefined;
  return path(link);
}
