/**
 * Waiting for something to happen without guessing how long it takes: poll until it has,
 * or fail after a timeout with what was last seen. A fixed sleep in a test is either too
 * short (a flaky test on a busy machine) or too long (a slow suite); a fixed wait belongs
 * only where the wait is the point (a TTL, a window, proving that something does NOT happen),
 * with a comment saying so.
 *
 * (Tests under src/ that import nothing from test/ — the unit project — use Vitest's own
 * `vi.waitFor`, which does the same, so that they stay free of test/support.)
 */

export interface PollOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Pause between tries (default 20 ms). */
  intervalMs?: number;
  /** What is awaited, for the message on a timeout. */
  what?: string;
}

const DEFAULTS = { timeoutMs: 10_000, intervalMs: 20 };

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `assertion` until it passes (does not throw), and resolves with what it returned. On a
 * timeout, rethrows the last error, so the failure shows the last expectation that did not hold.
 */
export async function eventually<T>(assertion: () => T | Promise<T>, options: PollOptions = {}): Promise<T> {
  const { timeoutMs, intervalMs } = { ...DEFAULTS, ...options };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() >= deadline) {
        if (error instanceof Error && options.what) {
          error.message = `${error.message}\n(still failing after ${timeoutMs} ms waiting for ${options.what})`;
        }
        throw error;
      }
    }
    await pause(intervalMs);
  }
}

/**
 * Calls `predicate` until it returns something truthy, and resolves with that value (so it can
 * fetch what it waits for: `const row = await waitFor(() => findRow(id))`). Throws on a timeout.
 */
export async function waitFor<T>(
  predicate: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: PollOptions = {},
): Promise<T> {
  const { timeoutMs, intervalMs } = { ...DEFAULTS, ...options };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${options.what ?? 'a condition'}`);
    }
    await pause(intervalMs);
  }
}
