/** How the dashboard words a moment: the person's own locale and time zone. */
export const when = (iso: string): string => new Date(iso).toLocaleString();

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/**
 * How long ago a moment was, as a person says it ("3 minutes ago", "yesterday"); "just now"
 * under a minute, and the date itself after a week, when "23 days ago" says less than the day.
 */
export function ago(iso: string, now: number = Date.now()): string {
  const elapsed = now - new Date(iso).getTime();
  if (Number.isNaN(elapsed)) return iso;
  if (elapsed < 60_000) return 'just now';
  if (elapsed >= 7 * 86_400_000) return new Date(iso).toLocaleDateString();
  const words = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (elapsed >= size) return words.format(-Math.floor(elapsed / size), unit);
  }
  return 'just now';
}
