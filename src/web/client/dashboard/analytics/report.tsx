import type { ComponentChildren } from 'preact';
import { sizeInWords } from '../../../../shared/messages.js';
import { DailyChart } from './chart.js';
import {
  type Analytics as Answer,
  type Choice,
  count,
  type Day,
  dayWords,
  hrefOf,
  percent,
  quiet,
  weekdayOf,
} from './model.js';

/**
 * What GET /analytics answered, shown: the range, the totals (each with its figure as a
 * machine-readable `<data value>`), a row per form (for all forms), the daily chart and the
 * "Daily figures" table that is its equivalent.
 */

/** The range the API answered for, in words. */
export function Range({ data }: { data: Answer }) {
  const [first, last] = [data.from.slice(0, 10), data.to.slice(0, 10)];
  return (
    <>
      Figures from <time dateTime={first}>{dayWords(first)}</time> to{' '}
      <time dateTime={last}>{dayWords(last)}</time>.
    </>
  );
}

/** A completion rate in words; without starts a dash, said as such. */
function Rate({ rate }: { rate: number | null }) {
  if (rate !== null) return <>{percent(rate)}</>;
  return (
    <>
      <span aria-hidden="true">–</span>
      <span class="visually-hidden">none: no starts</span>
    </>
  );
}

const FIGURES = [
  ['views', 'Views'],
  ['starts', 'Starts'],
  ['submissions', 'Submissions'],
  ['flagged', 'Flagged'],
  ['quarantined', 'Quarantined'],
] as const;

export function Report({ data, environment, choice }: { data: Answer; environment: string; choice: Choice }) {
  const { totals } = data;
  // the rows leave the year out when the range (above them) names a single one
  const oneYear = data.from.slice(0, 4) === data.to.slice(0, 4);
  return (
    <>
      <dl class="stats">
        {FIGURES.map(([key, label]) => (
          <div class="stat" key={key}>
            <dt>{label}</dt>
            <dd>
              <data value={String(totals[key])}>{count(totals[key])}</data>
            </dd>
          </div>
        ))}
        <div class="stat">
          <dt>Completion rate</dt>
          <dd>
            <data value={totals.completionRate === null ? '' : String(totals.completionRate)}>
              <Rate rate={totals.completionRate} />
            </data>
          </dd>
        </div>
        <div class="stat">
          <dt>Files kept</dt>
          <dd>
            <data value={String(totals.storageBytes)}>{sizeInWords(totals.storageBytes)}</data>
          </dd>
        </div>
      </dl>
      <p class="hint analytics__about">
        Views and starts count once per visitor’s session; a start is the first answer given. Submissions are
        the responses that reached the inbox, flagged ones included (and also counted apart); quarantined ones
        are not among them. Completion rate is submissions ÷ starts
        {totals.completionRate === null ? ': none without starts' : ''}; it passes 100% when responses arrive
        through the API without a start. Files kept is what the{' '}
        {choice.form === '' ? 'environment’s' : 'form’s'} files take in storage now, whatever the dates.
      </p>
      {choice.form === '' && <PerForm data={data} environment={environment} choice={choice} />}
      <h2>Per day</h2>
      {quiet(data.daily) ? (
        <p class="empty">
          No views yet in this range, nor starts or submissions. Share a form’s link, or choose other dates.
        </p>
      ) : (
        <>
          <DailyChart days={data.daily} summary={summaryOf(data.daily)} />
          <Scroller class="analytics__days" label="Daily figures">
            <table>
              <caption>Daily figures</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col" class="num">
                    Views
                  </th>
                  <th scope="col" class="num">
                    Starts
                  </th>
                  <th scope="col" class="num">
                    Submissions
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...data.daily].reverse().map((day) => (
                  <tr key={day.date}>
                    <th scope="row">
                      <time dateTime={day.date}>
                        <span class="analytics__weekday">{weekdayOf(day.date)}, </span>
                        {dayWords(day.date, { weekday: false, year: !oneYear })}
                      </time>
                    </th>
                    <td class="num">{count(day.views)}</td>
                    <td class="num">{count(day.starts)}</td>
                    <td class="num">{count(day.submissions)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroller>
        </>
      )}
    </>
  );
}

function PerForm({ data, environment, choice }: { data: Answer; environment: string; choice: Choice }) {
  return (
    <>
      <h2>Per form</h2>
      {data.forms.length === 0 ? (
        <p class="empty">No forms in {environment} yet. Start one from “Forms”, or switch environment.</p>
      ) : (
        <Scroller label="Figures per form">
          <table>
            <caption class="visually-hidden">Figures per form</caption>
            <thead>
              <tr>
                <th scope="col">Form</th>
                {FIGURES.map(([key, label]) => (
                  <th key={key} scope="col" class="num">
                    {label}
                  </th>
                ))}
                <th scope="col" class="num">
                  Completion rate
                </th>
              </tr>
            </thead>
            <tbody>
              {data.forms.map((form) => (
                <tr key={form.formId}>
                  <th scope="row">
                    <a href={hrefOf({ ...choice, form: form.formId })}>{form.title}</a>
                  </th>
                  {FIGURES.map(([key]) => (
                    <td key={key} class="num">
                      {count(form[key])}
                    </td>
                  ))}
                  <td class="num">
                    <Rate rate={form.completionRate} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroller>
      )}
    </>
  );
}

/**
 * A table that may be wider (or, by day, longer) than the screen scrolls in its own box, which
 * the keyboard must reach to scroll it: focusable, and named as a region.
 */
export function Scroller({
  label,
  class: extra,
  children,
}: {
  label: string;
  class?: string;
  children: ComponentChildren;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box is reached by the keyboard to be scrolled (WCAG 2.1.1)
    <section class={`table-wrap${extra ? ` ${extra}` : ''}`} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/** `n` things in words: "1 view", "2 views". */
const some = (n: number, thing: string) => `${count(n)} ${thing}${n === 1 ? '' : 's'}`;

/** The chart in words, for those who do not see it: the range, the sums, the busiest day. */
function summaryOf(days: Day[]): string {
  const sum = (key: 'views' | 'starts' | 'submissions') => days.reduce((total, day) => total + day[key], 0);
  const busiest = days.reduce<Day | undefined>(
    (best, day) => (!best || day.views > best.views ? day : best),
    undefined,
  );
  const first = days[0]?.date ?? '';
  const last = days[days.length - 1]?.date ?? '';
  const most =
    busiest && busiest.views > 0 ? ` Most views on ${dayWords(busiest.date)}: ${count(busiest.views)}.` : '';
  return (
    `Line chart of views, starts and submissions per day from ${dayWords(first)} to ${dayWords(last)}: ` +
    `${some(sum('views'), 'view')}, ${some(sum('starts'), 'start')} and ${some(sum('submissions'), 'submission')} in all.` +
    `${most} Every day’s figures are in the table “Daily figures”.`
  );
}
