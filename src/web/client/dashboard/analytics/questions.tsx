import type { paths } from '../api/schema.js';
import { count, percent } from './model.js';

/**
 * The per-question summary of one form (API.md §8, GET /analytics/questions), as people expect
 * from Google Forms' Summary tab: a bar per option of a choice (a checkbox's Yes and No), a
 * number's or rating's mean, median, lowest and highest and a bar per value or range, and how
 * many answered a text question (its answers stay in the inbox). Each chart is its own table:
 * the figures are the cells, the bars (aria-hidden SVG) only draw them, so what is seen and
 * what is read out are the same figures.
 */

export type QuestionSummary =
  paths['/analytics/questions']['get']['responses'][200]['content']['application/json'];
type Question = QuestionSummary['questions'][number];

const WITHHELD: Record<string, string> = {
  masked: 'masked',
  hashed: 'hashed',
  encrypted: 'encrypted',
  dropped: 'not kept',
};

const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const figure = (value: number | null | undefined) =>
  value === null || value === undefined ? '–' : numbers.format(value);

/** A row's share of the question's answers, as a bar: its width is the share of the largest row. */
function Bar({ value, largest }: { value: number; largest: number }) {
  const width = largest === 0 ? 0 : (value / largest) * 100;
  return (
    <svg class="bar" width="100%" height="14" aria-hidden="true" focusable="false">
      <rect class="bar__track" x="0" y="0" width="100%" height="14" rx="3" />
      {value > 0 && (
        <rect class="bar__fill" x="0" y="0" width={`${Math.max(width, 1)}%`} height="14" rx="3" />
      )}
    </svg>
  );
}

function Rows({
  caption,
  head,
  rows,
  total,
}: {
  caption: string;
  head: string;
  rows: Array<{ key: string; name: string; count: number }>;
  total: number;
}) {
  const largest = Math.max(0, ...rows.map((row) => row.count));
  return (
    <table class="question__table">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{head}</th>
          <th scope="col" class="num">
            Responses
          </th>
          <th scope="col" class="num">
            Share
          </th>
          <th scope="col" class="question__bars">
            <span class="visually-hidden">Bar</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.name}</th>
            <td class="num">{count(row.count)}</td>
            <td class="num">{percent(total === 0 ? 0 : row.count / total)}</td>
            <td class="question__bars">
              <Bar value={row.count} largest={largest} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function bucketName(bucket: { from: number; to: number }, last: boolean): string {
  if (bucket.from === bucket.to) return numbers.format(bucket.from);
  // from ≤ value < to, the last with its end included
  return last
    ? `${numbers.format(bucket.from)} to ${numbers.format(bucket.to)}`
    : `${numbers.format(bucket.from)} to under ${numbers.format(bucket.to)}`;
}

function QuestionCard({ question, responses }: { question: Question; responses: number }) {
  const id = `question-${question.fieldId}`;
  return (
    <section class="question" aria-labelledby={id}>
      <h3 id={id}>{question.label}</h3>
      <p class="muted">
        {count(question.answered)} of {count(responses)} answered
        {question.withheld
          ? ` · kept ${WITHHELD[question.withheld] ?? question.withheld} as personal data, so no answers are shown`
          : ''}
      </p>
      {question.withheld ? null : question.options ? (
        <Rows
          caption={`${question.label}: responses per option`}
          head={question.type === 'checkbox' ? 'Ticked' : 'Option'}
          total={question.answered}
          rows={question.options.map((option) => ({
            key: option.value,
            name: option.label,
            count: option.count,
          }))}
        />
      ) : question.distribution ? (
        <>
          <dl class="question__figures">
            {(
              [
                ['Mean', question.mean],
                ['Median', question.median],
                ['Lowest', question.min],
                ['Highest', question.max],
              ] as const
            ).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{figure(value)}</dd>
              </div>
            ))}
          </dl>
          {question.distribution.length > 0 && (
            <Rows
              caption={`${question.label}: responses per ${question.type === 'rating' ? 'rating' : 'value'}`}
              head={question.type === 'rating' ? 'Rating' : 'Answer'}
              total={question.answered}
              rows={question.distribution.map((bucket, i, all) => ({
                key: `${bucket.from}-${bucket.to}`,
                name: bucketName(bucket, i === all.length - 1),
                count: bucket.count,
              }))}
            />
          )}
        </>
      ) : (
        <p class="hint">Each answer is in the inbox.</p>
      )}
    </section>
  );
}

export function Questions({ data }: { data: QuestionSummary }) {
  return (
    <>
      <h2>Per question</h2>
      {data.responses === 0 ? (
        <p class="empty">No responses in this range yet: each question’s answers will be summed up here.</p>
      ) : (
        <>
          <p class="hint">
            {count(data.responses)} {data.responses === 1 ? 'response' : 'responses'} in this range,
            quarantined ones left out. Shares are of those who answered the question; where several options
            may be chosen they add up to more than 100%.
          </p>
          <div class="questions">
            {data.questions.map((question) => (
              <QuestionCard key={question.fieldId} question={question} responses={data.responses} />
            ))}
          </div>
        </>
      )}
    </>
  );
}
