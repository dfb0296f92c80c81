import v8 from 'node:v8';

/**
 * A long read that turns rows into text (an export of a million responses) leaves a steady trickle
 * of garbage in V8's old generation, where only a full collection frees it, and V8 starts one only
 * once that generation has grown past a limit that starts high. With PostgreSQL's driver answering
 * through its own promises, 1M rows grew the old space from 17 to 90–122 MiB and the RSS by
 * 120–180 MiB before the first one (`v8.getHeapSpaceStatistics` sampled during the export);
 * answered through pg-queries.ts, the RSS still grew by 85–90 MiB (CSV) and 71 MiB (XLSX).
 *
 * So a reader of that kind calls the check `start()` gives it at each step (a chunk): once the old
 * generation (its regular and large-object spaces) has grown by `PROMOTED_GROWTH_BYTES` since the
 * read began, or since the collection before, a full collection is asked for, run by V8 as a task
 * of its own (`gc({ type: 'major', execution: 'async' })`), and the next is counted from what it
 * left. Measured on 1M rows through PostgreSQL, with and without it: RSS growth 85–90 → 57–59 MiB
 * (CSV) and 71 → 61 MiB (XLSX) in 1–4 collections of about 20 ms, rows a second within the runs'
 * spread (24 MiB between collections: 66–71 MiB; what is left is mostly the young generation, 2 ×
 * 16 MiB, grown back from an idle service's). A service whose compiled code is still cold (its first
 * start after an install) collects more often: 29–37 times over its first export. Asking needs
 * `gc`, which Node gives only under `--expose-gc` (npm start passes it); without it nothing is asked.
 */

/** Old-generation growth during one read that is worth a full collection (about 20 ms each). */
export const PROMOTED_GROWTH_BYTES = 12 * 1024 * 1024;

type Collect = (options: { type: 'major'; execution: 'async' }) => unknown;

/** Bytes in use in the old generation: its regular and large-object spaces. */
export function oldGenerationBytes(): number {
  let used = 0;
  for (const space of v8.getHeapSpaceStatistics())
    if (space.space_name === 'old_space' || space.space_name === 'large_object_space')
      used += space.space_used_size;
  return used;
}

/**
 * A pacer for the process's long reads: `start()` notes where the old generation stands and gives
 * the check to call at each step. The mark is the process's old generation, not the read's own
 * garbage: `growthBytes`, or half of what the old generation held when the count began, whichever
 * is more, so that a process with a large live heap (whose full collections take longer) asks
 * less often. One collection at a time for the whole process, and one made for any read counts
 * for every read under way: two exports at once do not ask twice.
 */
export function promotionPacer(
  collect: Collect | undefined,
  { growthBytes = PROMOTED_GROWTH_BYTES, oldGeneration = oldGenerationBytes } = {},
): { start: () => () => void } {
  if (!collect) return { start: () => () => {} };
  let pending = false;
  /** Collections asked for and done, and what the old generation held after the last. */
  let collections = 0;
  let afterLast = 0;
  return {
    start() {
      let floor = oldGeneration();
      let seen = collections;
      return () => {
        if (pending) return;
        if (seen !== collections) {
          seen = collections;
          floor = afterLast;
        }
        if (oldGeneration() - floor < Math.max(growthBytes, floor / 2)) return;
        pending = true;
        const settle = () => {
          pending = false;
          collections += 1;
          afterLast = oldGeneration();
        };
        try {
          Promise.resolve(collect({ type: 'major', execution: 'async' })).then(settle, settle);
        } catch {
          // a Node whose gc refuses these options: counted from here, asked again after more growth
          settle();
        }
      };
    },
  };
}

/** The process's pacer: every export reads through it (features/submissions/export-chunks.ts). */
export const exportPacer = promotionPacer(globalThis.gc as Collect | undefined);
