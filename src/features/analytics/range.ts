import { parseBound } from '../../platform/http/bounds.js';
import { badRequest } from '../../platform/problem.js';

/** The days GET /analytics covers when no `from` is given: today (UTC) and the 29 before it. */
export const DEFAULT_DAYS = 30;
/** The longest range one request may ask for, in UTC days: a leap year. */
export const MAX_DAYS = 366;

const DAY_MS = 86_400_000;

export interface DateRange {
  /** Inclusive bounds, ISO 8601 UTC with milliseconds. */
  from: string;
  to: string;
  /** Every UTC day the range touches, `YYYY-MM-DD`, oldest first. */
  days: string[];
}

const dayOf = (iso: string) => iso.slice(0, 10);

const rangeError = (detail: string) =>
  badRequest('invalid_parameter', detail, {
    errors: [
      { field: 'from', code: 'range', message: detail },
      { field: 'to', code: 'range', message: detail },
    ],
  });

/**
 * `from`/`to` as on GET /responses (dates or date-times, inclusive, a date-only `to`
 * covering its day). `to` defaults to the end of today (UTC), `from` to the start of the
 * day 29 days before `to`'s; days are UTC days.
 */
export function parseRange(
  fromText: string | undefined,
  toText: string | undefined,
  now = new Date(),
): DateRange {
  const to =
    parseBound(toText, 'to') ?? new Date(Date.parse(dayOf(now.toISOString())) + DAY_MS - 1).toISOString();
  const from =
    parseBound(fromText, 'from') ??
    new Date(Date.parse(dayOf(to)) - (DEFAULT_DAYS - 1) * DAY_MS).toISOString();
  if (from > to) throw rangeError(`from (${from}) is after to (${to})`);
  const first = Date.parse(dayOf(from));
  const count = (Date.parse(dayOf(to)) - first) / DAY_MS + 1;
  if (count > MAX_DAYS) {
    throw rangeError(`The range covers ${count} days; ask for at most ${MAX_DAYS} at a time`);
  }
  const days = Array.from({ length: count }, (_, i) => dayOf(new Date(first + i * DAY_MS).toISOString()));
  return { from, to, days };
}
