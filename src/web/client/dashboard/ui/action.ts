import { useCallback, useRef, useState } from 'preact/hooks';
import { type ApiError, apiErrorOf } from '../api/client.js';

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
    }
  }, []);
  return { busy, error, run, fail: setError };
}
