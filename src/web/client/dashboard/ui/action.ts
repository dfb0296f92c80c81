import { useCallback, useRef, useState } from 'preact/hooks';
import { type ApiError, apiErrorOf } from '../api/client.js';
import { focusOn } from './controls.js';

/**
 * What a person sets off (a save, a delete, a sign-in): busy while it runs (its button disabled,
 * so it is not sent twice), and its refusal kept to show beside what caused it. Each view's
 * many try/catch/finally blocks in one place.
 */
export interface Action {
  busy: boolean;
  error: ApiError | undefined;
  /** Runs `work` (the last error forgotten first); whether it succeeded. A run while one is under way does nothing. */
  run: (work: () => Promise<unknown>) => Promise<boolean>;
  /** Shows a refusal met elsewhere (a check before sending, say) as this action's. */
  fail: (error: ApiError | undefined) => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  // read when a run starts, not from the render that made `run`: two quick clicks send once
  const running = useRef(false);
  const run = useCallback(async (work: () => Promise<unknown>) => {
    if (running.current) return false;
    running.current = true;
    const focused = document.activeElement;
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (caught) {
      setError(apiErrorOf(caught));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
      keepFocus(focused);
    }
  }, []);
  return { busy, error, run, fail: setError };
}

/**
 * A control disabled while its action runs loses the focus (browsers put it on the body), and a
 * keyboard user would start again from the top of the page. Once the view has drawn the outcome,
 * the focus goes back to that control; when it went with what it acted on (a row deleted), to the
 * view's heading. Unless something took the focus meanwhile on purpose (a new key's copy button).
 */
function keepFocus(focused: Element | null): void {
  if (!(focused instanceof HTMLElement) || focused === document.body) return;
  setTimeout(() => {
    const now = document.activeElement;
    if (now !== null && now !== document.body) return;
    if (focused.isConnected) focused.focus();
    else focusOn(document.querySelector<HTMLElement>('main h1'));
  }, 0);
}
