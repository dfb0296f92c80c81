import type { DateRange } from './range.js';
import type { DayCounts, ScopedForm } from './repo.js';

/** The shape of GET /analytics (API.md §8), built from the counts the database grouped. */

interface Counters {
  views: number;
  starts: number;
  submissions: number;
  flagged: number;
  quarantined: number;
}

export interface Analytics {
  environment: string;
  from: string;
  to: string;
  totals: Counters & { completionRate: number | null; storageBytes: number };
  forms: Array<{ formId: string; title: string } & Counters & { completionRate: number | null }>;
  daily: Array<{ date: string; views: number; starts: number; submissions: number }>;
}

const zero = (): Counters => ({ views: 0, starts: 0, submissions: 0, flagged: 0, quarantined: 0 });

function add(into: Counters, counts: Counters): void {
  into.views += counts.views;
  into.starts += counts.starts;
  into.submissions += counts.submissions;
  into.flagged += counts.flagged;
  into.quarantined += counts.quarantined;
}

/**
 * Submissions per start, to four decimals; null without starts (nothing to divide by).
 * It exceeds 1 when submissions arrive without start events (server-side integrations).
 */
export function completionRate(counters: Counters): number | null {
  if (counters.starts === 0) return null;
  return Math.round((counters.submissions / counters.starts) * 10_000) / 10_000;
}

const withRate = <T extends Counters>(counters: T) => ({
  ...counters,
  completionRate: completionRate(counters),
});

/**
 * Every form of the scope (with zeros when nothing happened) and every day of the range.
 * Counts of a form missing from `forms` (created after they were listed) are left out of
 * every sum, so totals, forms and daily always agree.
 */
export function presentAnalytics(
  environment: string,
  range: DateRange,
  forms: ScopedForm[],
  counts: DayCounts[],
  storageBytes = 0,
): Analytics {
  const byForm = new Map(forms.map((form) => [form.id, zero()]));
  const byDay = new Map(range.days.map((day) => [day, zero()]));
  const totals = zero();
  for (const row of counts) {
    const form = byForm.get(row.formId);
    if (!form) continue;
    add(form, row);
    add(totals, row);
    const day = byDay.get(row.day);
    if (day) add(day, row);
  }
  return {
    environment,
    from: range.from,
    to: range.to,
    totals: { ...withRate(totals), storageBytes },
    forms: forms.map((form) => ({
      formId: form.id,
      title: form.title,
      ...withRate(byForm.get(form.id) ?? zero()),
    })),
    daily: range.days.map((date) => {
      const day = byDay.get(date) ?? zero();
      return { date, views: day.views, starts: day.starts, submissions: day.submissions };
    }),
  };
}
