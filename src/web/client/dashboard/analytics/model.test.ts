import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Day,
  dayWords,
  hrefOf,
  isoDay,
  MAX_DAYS,
  percent,
  preset,
  quiet,
  rangeProblem,
  scale,
  today,
} from './model.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the range', () => {
  it('counts days in UTC: today, and the presets ending today', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-25T23:30:00-05:00') });
    expect(today()).toBe('2026-11-26');
    expect(preset(7)).toEqual({ from: '2026-11-20', to: '2026-11-26' });
    expect(preset(30, '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(isoDay(0)).toBe('1970-01-01');
  });
  it('puts only what is chosen in the address', () => {
    expect(hrefOf({ form: '', from: '', to: '' })).toBe('/app/analytics');
    expect(hrefOf({ form: 'frm 1', from: '2026-11-01', to: '' })).toBe(
      '/app/analytics?form=frm+1&from=2026-11-01',
    );
  });
  it('refuses an end before the start, a start after today without an end, and more days than the API answers', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-26T12:00:00Z') });
    expect(rangeProblem('2026-11-02', '2026-11-01')).toMatch(/“To” is before “From”/);
    expect(rangeProblem('2026-12-01', '')).toMatch(/after today/);
    expect(rangeProblem('2024-01-01', '2025-01-01')).toMatch(/covers 367 days/);
    expect(rangeProblem('2025-01-01', '2025-12-31')).toBeUndefined();
    expect(MAX_DAYS).toBe(366);
  });
  it('leaves alone what it cannot judge: no start, or a date still being typed', () => {
    expect(rangeProblem('', '2026-11-01')).toBeUndefined();
    expect(rangeProblem('2026-1', '2026-11-01')).toBeUndefined();
  });
});

describe('the figures’ words', () => {
  it('says a rate as a percentage, and a dash without starts', () => {
    expect(percent(null)).toBe('–');
    expect(percent(0.5)).toMatch(/50/);
  });
  it('words a UTC day whatever the reader’s time zone, leaving parts out when asked', () => {
    expect(dayWords('2026-11-26')).toMatch(/26/);
    expect(dayWords('2026-11-26', { weekday: false, year: false })).not.toMatch(/2026/);
  });
  it('knows a range where nothing happened', () => {
    const day = (views: number): Day => ({ date: '2026-11-26', views, starts: 0, submissions: 0 });
    expect(quiet([day(0), day(0)])).toBe(true);
    expect(quiet([day(0), day(1)])).toBe(false);
  });
});

describe('scale', () => {
  it('steps by 1, 2 or 5 × 10ⁿ up to a top at or above the largest count', () => {
    expect(scale(0)).toEqual({ step: 1, top: 1 });
    expect(scale(3)).toEqual({ step: 1, top: 3 });
    expect(scale(7)).toEqual({ step: 2, top: 8 });
    expect(scale(180)).toEqual({ step: 50, top: 200 });
    expect(scale(1234)).toEqual({ step: 500, top: 1500 });
  });
});
