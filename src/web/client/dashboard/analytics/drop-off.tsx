import type { paths } from '../api/schema.js';
import { ChartFrame, useMeasuredWidth } from './chart-frame.js';
import { count } from './model.js';
import { Scroller } from './report.js';

/**
 * Drop-off (API.md §15, GET /analytics/drop-off): where a form's visitors gave up, per question in
 * page order. A hand-drawn SVG funnel, a bar per question: its length the sessions that reached
 * it (all bars on one scale), the solid part those that answered it, the hatched end those that
 * left there. Drawn at the width it is given (measured), so its text keeps its size on a phone;
 * colours are CSS variables (light and dark), and the three parts differ by fill and pattern, not
 * by colour alone. The SVG is an image named by a summary; the table "Drop-off per question" below
 * it holds the same figures, and is its equivalent.
 */

export type DropOffFigures =
  paths['/analytics/drop-off']['get']['responses'][200]['content']['application/json'];
type Question = DropOffFigures['questions'][number];

/** A row of the funnel, in CSS pixels: the label's line, then the bar. */
const ROW = 48;
const LABEL_Y = 15;
const BAR_Y = 22;
const BAR_HEIGHT = 16;
/** About the width of a character of the 13px labels, to cut a long label short. */
const CHAR_PX = 7.2;
const HATCH = 'drop-off-hatch';

const PARTS = [
  { key: 'reached', label: 'Reached' },
  { key: 'answered', label: 'Answered' },
  { key: 'left', label: 'Left here' },
] as const;

function cut(text: string, room: number): string {
  const fits = Math.max(4, Math.floor(room / CHAR_PX));
  return text.length <= fits ? text : `${text.slice(0, fits - 1).trimEnd()}…`;
}

/** The hatching of "left here": stripes over a tint, so it shows in print and without colour. */
function Hatch() {
  return (
    <defs>
      <pattern id={HATCH} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect class="drop-off__hatch-ground" width="6" height="6" />
        <line class="drop-off__hatch-line" x1="0" y1="0" x2="0" y2="6" />
      </pattern>
    </defs>
  );
}

/** One part's swatch, for the legend (the bar's own shapes, small). */
function Swatch({ part }: { part: (typeof PARTS)[number]['key'] }) {
  return (
    <svg class="drop-off__key" width="28" height="14" viewBox="0 0 28 14" aria-hidden="true">
      {part === 'left' && <Hatch />}
      <rect class={`drop-off__${part}`} x="1" y="1" width="26" height="12" rx="2" />
    </svg>
  );
}

/** One bar of the row starting at `top`: the track under it all, or one of the three parts. */
function Bar({ part, x, width, top }: { part: string; x: number; width: number; top: number }) {
  return <rect class={`drop-off__${part}`} x={x} y={top + BAR_Y} width={width} height={BAR_HEIGHT} rx="3" />;
}

const LEGEND = PARTS.map((part) => ({
  key: part.key,
  label: part.label,
  swatch: <Swatch part={part.key} />,
}));

export function Funnel({ questions, summary }: { questions: Question[]; summary: string }) {
  const [box, width] = useMeasuredWidth();
  const height = questions.length * ROW;
  const most = Math.max(1, ...questions.map((question) => question.reached));
  // room on the right of each label line for its "reached" figure
  const figureRoom = 12 + CHAR_PX * count(most).length;
  const span = (value: number) => (Math.min(value, most) / most) * (width - 2);

  return (
    <ChartFrame
      class="chart drop-off"
      svgClass="chart__svg drop-off__svg"
      caption="Sessions per question, in page order"
      legend={LEGEND}
      summary={summary}
      box={box}
      width={width}
      height={height}
    >
      <Hatch />
      {questions.map((question, i) => {
        const top = i * ROW;
        const reached = span(question.reached);
        const answered = span(question.answered);
        const left = span(question.leftHere);
        return (
          <g key={question.fieldId} class="drop-off__row">
            <text class="drop-off__label" x="0" y={top + LABEL_Y}>
              {cut(`${i + 1}. ${question.label}`, width - figureRoom)}
            </text>
            <text class="drop-off__figure" x={width} y={top + LABEL_Y} text-anchor="end">
              {count(question.reached)}
            </text>
            <Bar part="track" x={1} width={width - 2} top={top} />
            {question.reached > 0 && <Bar part="reached" x={1} width={Math.max(reached, 2)} top={top} />}
            {question.answered > 0 && <Bar part="answered" x={1} width={Math.max(answered, 2)} top={top} />}
            {question.leftHere > 0 && (
              <Bar
                part="left"
                x={1 + Math.max(0, reached - Math.max(left, 2))}
                width={Math.max(left, 2)}
                top={top}
              />
            )}
          </g>
        );
      })}
    </ChartFrame>
  );
}

const some = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** The funnel in words, for those who do not see it: the sessions, who completed, where most left. */
export function summaryOf(data: DropOffFigures): string {
  const worst = data.questions.reduce<Question | undefined>(
    (best, question) => (!best || question.leftHere > best.leftHere ? question : best),
    undefined,
  );
  const most = worst && worst.leftHere > 0 ? ` Most left at “${worst.label}”: ${count(worst.leftHere)}.` : '';
  return (
    `Bar chart of ${some(data.questions.length, 'question', 'questions')}, each bar the sessions that reached it: ` +
    `${some(data.sessions, 'session', 'sessions')}, ${count(data.completed)} completed the form.` +
    `${most} Every question’s figures are in the table “Drop-off per question”.`
  );
}

export function DropOff({ data }: { data: DropOffFigures }) {
  const classic = data.layout === 'classic';
  return (
    <section class="drop-off-section" aria-labelledby="drop-off-heading">
      <h2 id="drop-off-heading">Drop-off</h2>
      {data.questions.length === 0 ? (
        <p class="empty">This form has no questions, so nobody can leave at one.</p>
      ) : data.sessions === 0 ? (
        <p class="empty">
          No visits in this range yet: once people open the form, where they stop will show here.
        </p>
      ) : (
        <>
          <p class="hint analytics__about">
            {some(data.sessions, 'visitor’s session', 'visitors’ sessions')} in this range,{' '}
            {count(data.completed)} of them sent the form. Each session counts once per question, however
            often it went back.{' '}
            {classic
              ? 'This form shows every question on one page: everyone who opened it reached them all, “answered” counts those who sent the page, and those who did not are counted as leaving at the first question.'
              : 'Answered: an answer was given and accepted with Next or Send (a question skipped was reached, not answered). Left here: the furthest question of a session that did not send the form.'}
          </p>
          <Funnel questions={data.questions} summary={summaryOf(data)} />
          <Scroller class="drop-off__figures" label="Drop-off per question">
            <table>
              <caption>Drop-off per question</caption>
              <thead>
                <tr>
                  <th scope="col">Question</th>
                  <th scope="col" class="num">
                    Reached
                  </th>
                  <th scope="col" class="num">
                    Answered
                  </th>
                  <th scope="col" class="num">
                    Left here
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.questions.map((question) => (
                  <tr key={question.fieldId}>
                    <th scope="row">{question.label}</th>
                    <td class="num">{count(question.reached)}</td>
                    <td class="num">{count(question.answered)}</td>
                    <td class="num">{count(question.leftHere)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroller>
        </>
      )}
    </section>
  );
}
