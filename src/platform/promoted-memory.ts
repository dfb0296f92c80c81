import v8 from 'node:v8';

/**
 * A long read that turns rows into text (an export of a million responses) leaves a steady trickle
 * of garbage in V8's old generation, where only a full collection frees it, and V8 starts one only
 * once that generation has grown past a limit that starts high. An export of 1M rows through
 * PostgreSQL's driver grew the old space from 17 to 90–122 MiB, and the service's RSS by 120–180
 * MiB, before the first one (measured with `v8.getHeapSpaceStatistics` during the export; the
 * growth was the same with chunks of 100, 250 or 1,000 rows).
 *
 * So a reader of that kind calls the check `start()` gives it at each step (a chunk): once the old
 * generation (its regular and large-object spaces) has grown by `PROMOTED_GROWTH_BYTES` since the
 * read began, or since the collection before, a full collection is asked for, run by V8 as a task
 * of its own (`gc({ type: 'major', execution: 'async' })`), and the next is counted from what it
 * left. Measured on 1M rows through PostgreSQL, alternated with runs without it: about 20
 * collections, RSS growth 143–177 → 67–69 MiB (CSV) and 126–129 → 76 MiB (XLSX), rows a second
 * within the runs' spread; 32 MiB between collections made 15 of them and 72–76 MiB of growth,
 * 20 MiB no less than 24 (what is left is mostly the young generation, 2 × 16 MiB, grown back
 * from an idle service's). Asking needs `gc`, which Node gives only under `--expose-gc` (npm start
 * passes it); without it nothing is asked.
 */

/** Old-generation growth during one read that is worth a full collection (10–25 ms at this size). */
export const PROMOTED_GROWTH_BYTES = 24 * 1024 * 1024;

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
 * A pacer for each long read: `start()` notes where the old generation stands and gives the
 * check to call at each step.
 */
export function promotionPacer(
  collect: Collect | undefined,
  { growthBytes = PROMOTED_GROWTH_BYTES, oldGeneration = oldGenerationBytes } = {},
): { start: () => () => void } {
  if (!collect) return { start: () => () => {} };
  return {
    start() {
      let floor = oldGeneration();
      let pending = false;
      return () => {
        if (pending || oldGeneration() - floor < growthBytes) return;
        pending = true;
        const settle = () => {
          pending = false;
          floor = oldGeneration();
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
