/**
 * Bytes streamed through the process in large chunks (a file upload's socket reads) are memory
 * outside V8's heap, freed only when the small objects holding them are collected. A stream of
 * 64 KiB chunks makes few objects (about 1,600 for 100 MB), too few to fill the young generation
 * (16 MiB, package.json's start script) and bring on its collection, so V8 let the chunks pile up
 * until its limit on external memory started a full collection: 30–60 MiB of RSS per large upload
 * on a warmed service, against 0.5–1.6 MiB with this pacing (bench/RESULTS.md, 2026-12-06).
 *
 * So every `CHURN_BYTES` of such bytes, a collection of the young generation is asked for, run by
 * V8 as a task of its own rather than inside the stream's callback. Asking needs `gc`, which Node
 * gives only under `--expose-gc` (npm start passes it); without it nothing is asked and memory
 * behaves as before.
 */

/** Bytes of streamed chunks between two young-generation collections: about 1 ms of collection per 8 MiB. */
export const CHURN_BYTES = 8 * 1024 * 1024;

type Collect = (options: { type: 'minor'; execution: 'async' }) => unknown;

/** A counter of streamed bytes that asks `collect` for a young-generation collection every `every` bytes. */
export function churnCounter(collect: Collect | undefined, every = CHURN_BYTES): (bytes: number) => void {
  if (!collect) return () => {};
  let since = 0;
  return (bytes) => {
    since += bytes;
    if (since < every) return;
    since = 0;
    collect({ type: 'minor', execution: 'async' });
  };
}

/** The process's counter: every upload (and any other large stream) adds its chunks to it. */
export const streamedBytes = churnCounter(globalThis.gc as Collect | undefined);
