import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** What the tests of V8's collections (src/platform/*-memory.test.ts) share. */

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Runs `script` (a module's body: `await` allowed, TypeScript imported through tsx) in a Node
 * process of its own under `--trace-gc` and `flags`; what it and V8 printed. `collectionWatch` can
 * be put at its start.
 */
export function underGcTrace(flags: readonly string[], script: string): string {
  return execFileSync(
    process.execPath,
    [...flags, '--trace-gc', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', cwd: ROOT },
  );
}

/**
 * Module source defining `watchCollection(kind, forcedOnly)`: from the call on, watches Node's
 * `gc` performance entries for a collection of `kind` ('minor' or 'major'; only those V8 marks as
 * forced, asked for through `gc`, when `forcedOnly`), and gives a function that waits for one, up
 * to its `waitMs`: a collection asked for runs as a task, later on a loaded machine.
 */
export const collectionWatch = `
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  const watchCollection = (kind, forcedOnly) => {
    const wanted = kind === 'major' ? constants.NODE_PERFORMANCE_GC_MAJOR : constants.NODE_PERFORMANCE_GC_MINOR;
    const seen = new Promise((resolve) => {
      const observer = new PerformanceObserver((list) => {
        const found = list.getEntries().some((entry) => entry.detail?.kind === wanted &&
          (!forcedOnly || entry.detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED));
        if (!found) return;
        observer.disconnect();
        resolve();
      });
      observer.observe({ entryTypes: ['gc'] });
    });
    return (waitMs) => {
      let timer;
      return Promise.race([seen, new Promise((resolve) => { timer = setTimeout(resolve, waitMs); })])
        .finally(() => clearTimeout(timer));
    };
  };
`;
