import type { paths } from '../api/schema.js';

/**
 * What the analytics view knows of GET /analytics (API.md §8) and how it words it: the range
 * in the address (`form`, `from`, `to`), its presets and checks, numbers and UTC days.
 */

export type Analytics = paths['/analytics']['get']['responses'][200]['content']['application/json'];
export type Day = Analytics['daily'][number];
export type Counters = Analytics['totals'];

/** What the address says: the form chosen (none: all forms) and the range, ISO dates or ''. */
export interface Choice {
  form: string;
  from: string;
  to: string;
}

export const DAY_MS = 86_400_000;
/** The longest range GET /analytics answers, in UTC days (the server's range.ts). */
export const MAX_DAYS = 366;
/** The presets offered, in days ending today (UTC); 30 is also what the API gives unasked. */
export const PRESETS = [7, 30, 90];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** Today as the server counts days: in UTC. */
export const today = (): string => isoDay(Date.now());

/** The last `days` UTC days, today included. */
export const preset = (days: number, end = today()) => ({
  from: isoDay(Date.parse(end) - (days - 1) * DAY_MS),
  to: end,
});

/** The address of the view for a choice (the empty parts left out). */
export function hrefOf(choice: Choice): string {
  const query = new URLSearchParams();
  for (const key of ['form', 'from', 'to'] as const) if (choice[key]) query.set(key, choice[key]);
  const search = query.toString();
  return `/app/analytics${search ? `?${search}` : ''}`;
}

/**
 * A range not worth sending, in words: `to` before `from`, or longer than the API answers.
 * A missing `to` is today (the API's default); a missing `from` always fits.
 */
export function rangeProblem(from: string, to: string): string | undefined {
  if (!DATE.test(from)) return undefined;
  const end = DATE.test(to) ? to : today();
  if (end < from) return to ? '“To” is before “From”.' : '“From” is after today.';
  const days = (Date.parse(end) - Date.parse(from)) / DAY_MS + 1;
  if (days > MAX_DAYS) return `The range covers ${days} days: choose at most ${MAX_DAYS} at a time.`;
  return undefined;
}

const numbers = new Intl.NumberFormat();
export const count = (value: number): string => numbers.format(value);

const percents = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
/** Submissions per start as a percentage; a dash without starts (nothing to divide by). */
export const percent = (rate: number | null): string => (rate === null ? '–' : percents.format(rate));

/**
 * A UTC day (`YYYY-MM-DD`) in the reader's words: by default with its weekday and year (the
 * range, summaries); the chart's axis and the table's rows leave parts out.
 */
export function dayWords(date: string, { weekday = true, year = true } = {}): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    ...(weekday ? { weekday: 'short' } : {}),
    ...(year ? { year: 'numeric' } : {}),
  });
}

/** The weekday of a UTC day, short ("Tue"). */
export const weekdayOf = (date: string): string =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { timeZone: 'UTC', weekday: 'short' });

/** Whether nothing at all happened on these days. */
export const quiet = (days: Day[]): boolean =>
  days.every((day) => day.views === 0 && day.starts === 0 && day.submissions === 0);

/** Chart ticks: a step of 1, 2 or 5 × 10ⁿ (never below 1: counts are whole) and the top it reaches. */
export function scale(max: number): { step: number; top: number } {
  if (max <= 0) return { step: 1, top: 1 };
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? rough);
  return { step, top: Math.ceil(max / step) * step };
}
