/**
 * Storage keys are made by Intake, never taken from a client: a short relative path of
 * `[a-z0-9_-]` segments joined by `/`. Anything else (`..`, an absolute path, a dot, an empty
 * segment) is a bug in the caller, so it is refused with a plain Error rather than a client's 4xx.
 */
const KEY_PATTERN = /^[a-z0-9_-]+(?:\/[a-z0-9_-]+)*$/;
const KEY_MAX_LENGTH = 512;

export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length > KEY_MAX_LENGTH || !KEY_PATTERN.test(key)) {
    throw new Error(
      `invalid file storage key ${JSON.stringify(key)}: expected [a-z0-9_-] segments joined by /`,
    );
  }
}

/** An inclusive byte range, checked like a key: the download route clamps a client's Range first. */
export function assertValidRange(range: { start: number; end: number } | undefined): void {
  if (range === undefined) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new Error(`invalid byte range ${start}-${end}`);
  }
}
