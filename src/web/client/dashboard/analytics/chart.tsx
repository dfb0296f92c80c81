import { ChartFrame, useMeasuredWidth } from './chart-frame.js';
import { count, type Day, dayWords, scale } from './model.js';

/**
 * Views, starts and submissions per day as a small hand-drawn SVG line chart. It is drawn at
 * the width it is given (measured), so its text keeps its size on a phone; its colours are
 * CSS variables (light and dark). The lines differ by width and dash, not by colour alone:
 * views widest underneath, submissions thinnest on top, so equal counts still show all three.
 * The SVG is an image named by a summary; the "Daily figures" table beside it is its equivalent.
 */

const SERIES = [
  { key: 'views', label: 'Views', dot: 5 },
  { key: 'starts', label: 'Starts', dot: 3.5 },
  { key: 'submissions', label: 'Submissions', dot: 2 },
] as const;

const LEGEND = SERIES.map((series) => ({
  key: series.key,
  label: series.label,
  swatch: (
    <svg class="chart__key" width="32" height="12" viewBox="0 0 32 12" aria-hidden="true">
      <line class={`chart__line chart__line--${series.key}`} x1="2" y1="6" x2="30" y2="6" />
    </svg>
  ),
}));

/** With this much room a day (CSS pixels), each day with a count has a mark (a dot); with less, the line alone. */
const DOT_ROOM = 12;
/** With less room than this a day, the lines are drawn thinner (`chart--dense`). */
const DENSE_ROOM = 4;
/** The room one axis label needs, in CSS pixels. */
const LABEL_PX = 76;

export function DailyChart({ days, summary }: { days: Day[]; summary: string }) {
  const [box, width] = useMeasuredWidth();
  const height = width < 480 ? 200 : 260;
  const max = Math.max(0, ...days.flatMap((day) => [day.views, day.starts, day.submissions]));
  const { step, top } = scale(max);
  const left = 14 + 7.5 * String(top).length;
  const [right, above, below] = [14, 12, 30];
  const plotWidth = width - left - right;
  const plotHeight = height - above - below;
  const x = (i: number) => left + (days.length === 1 ? plotWidth / 2 : (i * plotWidth) / (days.length - 1));
  const room = plotWidth / days.length;
  const y = (value: number) => above + plotHeight - (value / top) * plotHeight;
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  // every `every`-th day is labelled, counted back from the last (today, usually)
  const every = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(plotWidth / LABEL_PX))));
  const labelled = days.map((day, i) => ({ day, i })).filter(({ i }) => (days.length - 1 - i) % every === 0);
  const anchor = (i: number) =>
    days.length === 1
      ? 'middle'
      : i === days.length - 1
        ? 'end'
        : x(i) - left < LABEL_PX / 2
          ? 'start'
          : 'middle';

  return (
    <ChartFrame
      class={room < DENSE_ROOM ? 'chart chart--dense' : 'chart'}
      caption="Views, starts and submissions per day"
      legend={LEGEND}
      summary={summary}
      box={box}
      width={width}
      height={height}
    >
      <g class="chart__axis">
        {ticks.map((tick) => (
          <g key={tick}>
            <line class="chart__grid" x1={left} x2={width - right} y1={y(tick)} y2={y(tick)} />
            <text x={left - 6} y={y(tick)} text-anchor="end" dominant-baseline="middle">
              {count(tick)}
            </text>
          </g>
        ))}
        {labelled.map(({ day, i }) => (
          <g key={day.date}>
            <line
              class="chart__tick"
              x1={x(i)}
              x2={x(i)}
              y1={above + plotHeight}
              y2={above + plotHeight + 5}
            />
            <text x={x(i)} y={height - 8} text-anchor={anchor(i)}>
              {dayWords(day.date, { weekday: false, year: false })}
            </text>
          </g>
        ))}
      </g>
      {SERIES.map((series) => {
        const points = days.map((day, i) => `${x(i).toFixed(1)},${y(day[series.key]).toFixed(1)}`);
        return (
          <g key={series.key} class={`chart__series chart__series--${series.key}`}>
            {days.length > 1 && (
              <polyline class={`chart__line chart__line--${series.key}`} points={points.join(' ')} />
            )}
            {room >= DOT_ROOM &&
              days.map(
                (day, i) =>
                  // zero is the axis: a mark for what happened, or for the one day shown
                  (day[series.key] > 0 || days.length === 1) && (
                    <circle
                      key={day.date}
                      class={`chart__dot chart__dot--${series.key}`}
                      cx={x(i)}
                      cy={y(day[series.key])}
                      r={series.dot}
                    />
                  ),
              )}
          </g>
        );
      })}
    </ChartFrame>
  );
}
