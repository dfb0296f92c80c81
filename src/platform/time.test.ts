import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, nowIso } from './time.js';

describe('nowIso', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the current millisecond in ISO 8601 UTC, made again whenever the clock moves, back as well', () => {
    vi.useFakeTimers();
    for (const at of [
      '2026-11-27T05:00:00.000Z',
      '2026-11-27T05:00:00.001Z',
      '2026-11-27T05:00:00.000Z',
      '2027-01-01T00:00:00.999Z',
    ]) {
      vi.setSystemTime(new Date(at));
      expect(nowIso()).toBe(at);
      expect(nowIso()).toBe(at);
    }
  });

  it('follows the real clock', () => {
    const before = Date.now();
    const said = Date.parse(nowIso());
    expect(said).toBeGreaterThanOrEqual(before);
    expect(said).toBeLessThanOrEqual(Date.now());
  });
});

describe('addDays', () => {
  it('adds whole days in UTC', () => {
    expect(addDays('2026-02-28T12:00:00.000Z', 1)).toBe('2026-03-01T12:00:00.000Z');
    expect(addDays('2026-03-01T12:00:00.000Z', -1)).toBe('2026-02-28T12:00:00.000Z');
  });
});
