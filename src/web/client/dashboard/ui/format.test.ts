import { describe, expect, it } from 'vitest';
import { ago } from './format.js';

describe('ago', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  const earlier = (ms: number) => new Date(now - ms).toISOString();

  it('says "just now" under a minute, and for a moment a clock ahead put in the future', () => {
    expect(ago(earlier(30_000), now)).toBe('just now');
    expect(ago(earlier(-5_000), now)).toBe('just now');
  });

  it('counts minutes, hours and days as a person says them', () => {
    expect(ago(earlier(3 * 60_000), now)).toMatch(/3 min/);
    expect(ago(earlier(2 * 3_600_000 + 60_000), now)).toMatch(/2 hours? ago/);
    expect(ago(earlier(86_400_000 + 1), now)).toMatch(/yesterday|1 day ago/);
  });

  it('gives the date after a week, and an unreadable moment as it came', () => {
    expect(ago(earlier(8 * 86_400_000), now)).toBe(new Date(now - 8 * 86_400_000).toLocaleDateString());
    expect(ago('not a date', now)).toBe('not a date');
  });
});
