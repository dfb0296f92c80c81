import { useEffect, useRef } from 'preact/hooks';

/**
 * Calls `look` every `everyMs` while the tab is shown, and at once when it is shown again;
 * never twice at the same time (a slow answer is not piled on). `look` may change every
 * render: the latest is called. Stops when `active` is false or the view is left.
 */
export function useWhileShown(look: () => Promise<unknown>, everyMs: number, active = true): void {
  const latest = useRef(look);
  latest.current = look;
  useEffect(() => {
    if (!active) return;
    let busy = false;
    const tick = () => {
      if (busy || document.visibilityState !== 'visible') return;
      busy = true;
      latest.current().finally(() => {
        busy = false;
      });
    };
    const timer = setInterval(tick, everyMs);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [everyMs, active]);
}
