import { badRequest } from '../problem.js';

/** `YYYY-MM-DD`, optionally `THH:MM[:SS[.fraction]]` and `Z` or an offset (without one: UTC). */
const BOUND =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Milliseconds since the epoch of a matched bound, or undefined when a part is out of range. */
function boundTime(match: RegExpExecArray, name: 'from' | 'to'): number | undefined {
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // 2026-02-30 would roll over into March: refuse it instead
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  // a date-only `to` covers its whole day
  if (match[4] === undefined) return date.getTime() + (name === 'to' ? 86_400_000 - 1 : 0);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  let offset = 0;
  const zone = match[8];
  if (zone !== undefined && zone !== 'Z') {
    const [hours, minutes] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
    if (hours > 23 || minutes > 59) return undefined;
    offset = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  return date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + millis - offset;
}

/**
 * `from`/`to`: ISO 8601 dates or date-times, inclusive; a date-only `to` covers its whole
 * day. A date-time without an offset is UTC (never the server's local time), and dates
 * that do not exist (2026-02-30) are refused rather than rolled over.
 */
export function parseBound(value: string | undefined, name: 'from' | 'to'): string | undefined {
  if (value === undefined || value === '') return undefined;
  const match = BOUND.exec(value);
  const time = match ? boundTime(match, name) : undefined;
  // an offset can push a date out of the four-digit years ISO 8601 timestamps are stored in
  const iso =
    time === undefined || Number.isNaN(new Date(time).getTime()) ? '' : new Date(time).toISOString();
  if (!/^\d{4}-/.test(iso)) {
    throw badRequest('invalid_parameter', `${name} must be an ISO 8601 date or date-time (got "${value}")`, {
      errors: [{ field: name, code: 'format', message: 'must be an ISO 8601 date or date-time' }],
    });
  }
  return iso;
}
