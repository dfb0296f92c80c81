import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * Memory given back while the process is idle. V8 grows its young generation to the start
 * script's cap (2 × 16 MiB, `--max-semi-space-size`) within the first second, while the bundle is
 * compiled and the routes are built, and again under any load; it shrinks it only in a collection
 * that aims at memory, which an idle process never has: nothing allocates, so nothing collects. A
 * service started and left alone held 118.7 MiB of RSS from its first second to its twenty-fourth,
 * and 102.6 MiB after one such collection (measured on an empty database), which is most of what a
 * self-hosted instance does all day.
 *
 * So every `INTERVAL_MS` the event loop's use over the last interval is read. When the loop was
 * idle (busy under `IDLE_BELOW` of the time) for `IDLE_READINGS` readings in a row, the heap has
 * grown by `GROWTH_BYTES` since the last such collection (or none was run yet), and the spacing
 * since it has passed, V8 is asked for its "last resort" collection (`gc({ flavor: 'last-resort' })`,
 * V8's `CollectAllAvailableGarbage`: full collections that compact, shrink the young generation
 * and hand free pages back to the system). It holds the event loop for 30–110 ms (measured on a
 * service at rest; more with a larger live heap), so a request arriving just then waits that
 * long: the price of asking only when the loop was idle, only after growth worth giving back, and
 * ever more rarely when it keeps coming back (a light steady load looks idle between requests):
 * the spacing starts at `MIN_SPACING_MS` and doubles, up to `MAX_SPACING_MS`, for each collection
 * that comes within twice the spacing of the last. Asking needs `gc`, which Node gives only under
 * `--expose-gc` (npm start passes it); without it nothing is asked.
 */

/** How often the event loop's use is read. */
export const INTERVAL_MS = 250;

/** Busy less than this share of the last interval: idle. */
export const IDLE_BELOW = 0.05;

/** Idle readings in a row before a collection is asked for: half a second at rest. */
export const IDLE_READINGS = 2;

/** Heap growth since the last collection that is worth a collection's pause to give back. */
export const GROWTH_BYTES = 8 * 1024 * 1024;

/** The shortest time between two such collections. */
export const MIN_SPACING_MS = 10_000;

/** The longest the spacing grows to while collections keep coming back soon after one another. */
export const MAX_SPACING_MS = 10 * 60_000;

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => unknown;

export interface Released {
  heapBefore: number;
  heapAfter: number;
  rssBefore: number;
  rssAfter: number;
  ms: number;
}

export interface IdleMemoryOptions {
  /** V8's `gc` (`globalThis.gc` under `--expose-gc`); nothing is done without it. */
  collect: Collect | undefined;
  /** Told of each collection asked for, and what it gave back. */
  onRelease?: (released: Released) => void;
  /** Told when V8 refused the collection: the watch stops. */
  onFailure?: (error: unknown) => void;
  intervalMs?: number;
  idleBelow?: number;
  idleReadings?: number;
  growthBytes?: number;
  minSpacingMs?: number;
  maxSpacingMs?: number;
  /** For tests: the clock, the heap's size, the event loop's use since the last reading. */
  now?: () => number;
  heapSize?: () => number;
  rss?: () => number;
  busyShare?: () => number;
}

/** The event loop's busy share since the last call (the first: since the reader was made). */
export function busyShareReader(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, last);
    last = now;
    return since.utilization;
  };
}

/**
 * Starts watching for idle moments (see above); `check` runs one reading at once (tests), `stop`
 * ends the watch. The timer does not keep the process alive.
 */
export function releaseMemoryWhenIdle(options: IdleMemoryOptions): { check: () => void; stop: () => void } {
  const { collect } = options;
  if (!collect) return { check: () => {}, stop: () => {} };
  const intervalMs = options.intervalMs ?? INTERVAL_MS;
  const idleBelow = options.idleBelow ?? IDLE_BELOW;
  const idleReadings = options.idleReadings ?? IDLE_READINGS;
  const growthBytes = options.growthBytes ?? GROWTH_BYTES;
  const minSpacingMs = options.minSpacingMs ?? MIN_SPACING_MS;
  const maxSpacingMs = options.maxSpacingMs ?? MAX_SPACING_MS;
  const now = options.now ?? (() => performance.now());
  const heapSize = options.heapSize ?? (() => v8.getHeapStatistics().total_heap_size);
  const rss = options.rss ?? (() => process.memoryUsage.rss());
  const busyShare = options.busyShare ?? busyShareReader();
  // none asked yet: the first idle moment after start-up gives back what start-up grew
  let heapAfterLast = 0;
  let lastAt = Number.NEGATIVE_INFINITY;
  let spacingMs = minSpacingMs;
  let idleInARow = 0;

  let stopped = false;

  const check = () => {
    if (stopped) return;
    idleInARow = busyShare() < idleBelow ? idleInARow + 1 : 0;
    if (idleInARow < idleReadings) return;
    const at = now();
    if (at - lastAt < spacingMs) return;
    const heapBefore = heapSize();
    if (heapBefore - heapAfterLast < growthBytes) return;
    // back so soon: a load that looks idle between its requests; wait longer next time
    spacingMs = at - lastAt < 2 * spacingMs ? Math.min(spacingMs * 2, maxSpacingMs) : minSpacingMs;
    const rssBefore = rss();
    try {
      collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    } catch (error) {
      // a Node whose gc refuses these options: the service goes on as without --expose-gc
      stop();
      options.onFailure?.(error);
      return;
    }
    heapAfterLast = heapSize();
    // the spacing counts from the collection's end
    lastAt = now();
    options.onRelease?.({
      heapBefore,
      heapAfter: heapAfterLast,
      rssBefore,
      rssAfter: rss(),
      ms: lastAt - at,
    });
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  function stop() {
    stopped = true;
    clearInterval(timer);
  }
  return { check, stop };
}
