/**
 * A file upload's bytes come off the socket in 64 KiB buffers, memory outside V8's heap, freed
 * only when the small objects holding them are collected. 100 MB make about 1,600 such objects,
 * too few to fill the young generation (2 × 16 MiB, package.json's start script) and bring on its
 * collection, so V8 let the buffers pile up until its limit on external memory started a full
 * collection: 28–36 MiB of RSS growth over three 100 MB uploads on a warmed service, 5–20 MiB with
 * this pacing (docs/decisions.md, "The young generation's cap"; bench/RESULTS.md).
 *
 * So every `CHURN_BYTES` of uploaded bytes, a collection of the young generation is asked for,
 * run by V8 as a task of its own rather than inside the stream's callback, and at most once every
 * `MIN_INTERVAL_MS`: the collection is the whole process's, and one asked for while other work
 * keeps many objects alive (an export's rows) moves them to the old generation early. Asking
 * needs `gc`, which Node gives only under `--expose-gc` (npm start passes it); without it nothing
 * is asked and memory behaves as before.
 */

/** Uploaded bytes between two young-generation collections: about 1 ms of collection per 8 MiB. */
export const CHURN_BYTES = 8 * 1024 * 1024;

/** The shortest time between two collections asked for: at most 20 a second, whatever the uploads. */
export const MIN_INTERVAL_MS = 50;

type Collect = (options: { type: 'minor'; execution: 'async' }) => unknown;

/**
 * A counter of uploaded bytes that asks `collect` for a young-generation collection once `every`
 * bytes have passed since the last, and `minIntervalMs` too.
 */
export function churnCounter(
  collect: Collect | undefined,
  { every = CHURN_BYTES, minIntervalMs = MIN_INTERVAL_MS, now = () => performance.now() } = {},
): (bytes: number) => void {
  if (!collect) return () => {};
  let since = 0;
  let last = Number.NEGATIVE_INFINITY;
  return (bytes) => {
    since += bytes;
    if (since < every) return;
    const at = now();
    // too soon: the bytes stay counted, and a chunk after the interval asks
    if (at - last < minIntervalMs) return;
    since = 0;
    last = at;
    collect({ type: 'minor', execution: 'async' });
  };
}

/** The process's counter: every upload adds its chunks to it (files/ingest.ts). */
export const countUploadedBytes = churnCounter(globalThis.gc);
