import type { Db } from '../../platform/db/database.js';
import type { Field, FormDefinition } from '../forms/schemas.js';
import { exportChunks } from './export-chunks.js';
import { piiModeOf, type StoredValue } from './pii.js';

/**
 * What a form's answers say, per field (API.md §8, GET /analytics/questions), in one pass over
 * the responses: read in chunks (the exports' reader, export-chunks.ts), each chunk folded into
 * counters and let go. What is kept grows with the distinct values (a choice's options, a
 * number's values), never with the rows. One pass rather than SQL over the stored JSON: the
 * JSON functions of SQLite and PostgreSQL re-read each row's document once per field and
 * figure, which on 100,000 responses took ten seconds where this pass takes about one (the
 * figures are in the report of issue 25 and docs/decisions.md).
 *
 * The inbox's responses only: accepted and flagged, quarantined ones left out. A field whose
 * answers are kept masked, hashed, encrypted or dropped shows how many answered (what is stored
 * of it) and no values: counting them by value would show what the owner chose to hide.
 */

export interface AnswerScope {
  formId: string;
  /** Inclusive bounds, ISO 8601 UTC with milliseconds (they compare as text). */
  from: string;
  to: string;
}

export type WithheldBecause = 'masked' | 'hashed' | 'encrypted' | 'dropped';

export interface OptionCount {
  value: string;
  label: string;
  count: number;
}

/** One bucket of a number's distribution: from ≤ value < to, the last one with `to` included; one value when from = to. */
export interface Bucket {
  from: number;
  to: number;
  count: number;
}

export interface QuestionStats {
  fieldId: string;
  label: string;
  type: Field['type'];
  answered: number;
  withheld?: WithheldBecause;
  options?: OptionCount[];
  mean?: number | null;
  median?: number | null;
  min?: number | null;
  max?: number | null;
  distribution?: Bucket[];
}

export interface AnswerStats {
  responses: number;
  questions: QuestionStats[];
}

/** How many buckets a number's distribution has at most, unless each whole value has its own. */
const BUCKETS = 10;
/** Whole numbers spanning fewer values than this get a bucket each (an age group, a guest count). */
const ONE_BUCKET_EACH = 20;
/**
 * Rows read at a time. A chunk's decoded answers live across the next query's wait, long enough
 * for the young generation to promote them: over 1M answers, chunks of 2000 left V8's heap at
 * 147 MiB (RSS 246 MiB) for the process's life, 500 at 81 MiB (RSS 163 MiB), in the same 5 s on
 * SQLite; 250 less still, at twice the round trips on PostgreSQL.
 */
const CHUNK = 500;

type Kind = 'choice' | 'tick' | 'number' | 'text';
function kindOf(field: Field): Kind {
  if (field.type === 'select') return 'choice';
  if (field.type === 'checkbox') return 'tick';
  if (field.type === 'number' || field.type === 'rating') return 'number';
  return 'text';
}

/** An answer there is: not absent, not empty text, not an empty list (stored protected values count). */
function isAnswered(value: StoredValue | undefined): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}

interface Counter {
  field: Field;
  kind: Kind;
  withheld: WithheldBecause | undefined;
  answered: number;
  /** Choices and ticks: how often each value came; numbers: each value's count. */
  values: Map<string, number>;
  numbers: Map<number, number>;
}

function count(counter: Counter, value: StoredValue | undefined): void {
  if (!isAnswered(value)) return;
  counter.answered++;
  if (counter.withheld) return;
  const bump = (key: string) => counter.values.set(key, (counter.values.get(key) ?? 0) + 1);
  switch (counter.kind) {
    case 'tick':
      if (typeof value === 'boolean') bump(String(value));
      break;
    case 'choice':
      if (typeof value === 'string') bump(value);
      else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') bump(item);
      break;
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value))
        counter.numbers.set(value, (counter.numbers.get(value) ?? 0) + 1);
      break;
    default:
  }
}

/** The per-question summary of a form's answers in a scope (see the module's comment). */
export async function answerStats(
  db: Db,
  definition: FormDefinition,
  scope: AnswerScope,
): Promise<AnswerStats> {
  const counters: Counter[] = definition.fields.map((field) => {
    const mode = piiModeOf(field, definition);
    return {
      field,
      kind: kindOf(field),
      withheld: mode === 'plain' ? undefined : mode,
      answered: 0,
      values: new Map(),
      numbers: new Map(),
    };
  });
  const filter = {
    formId: scope.formId,
    statuses: ['accepted', 'flagged'] as const,
    from: scope.from,
    to: scope.to,
    starred: undefined,
    read: undefined,
  };
  let responses = 0;
  for await (const chunk of exportChunks(db, filter, CHUNK)) {
    responses += chunk.length;
    for (const { answers } of chunk)
      for (const counter of counters)
        count(counter, Object.hasOwn(answers, counter.field.id) ? answers[counter.field.id] : undefined);
  }
  return { responses, questions: counters.map(questionOf) };
}

function questionOf(counter: Counter): QuestionStats {
  const { field, kind } = counter;
  const question: QuestionStats = {
    fieldId: field.id,
    label: field.label,
    type: field.type,
    answered: counter.answered,
  };
  if (counter.withheld) return { ...question, withheld: counter.withheld };
  if (kind === 'choice' || kind === 'tick')
    return { ...question, options: optionCounts(field, kind, counter.values) };
  if (kind === 'number') return { ...question, ...numberFigures(field, counter.numbers) };
  return question;
}

/**
 * The options in the form's order, each with its count (none chosen: 0); a checkbox's are
 * Yes and No. Values no longer among the options (the form changed since) follow, by count.
 */
function optionCounts(field: Field, kind: Kind, counts: Map<string, number>): OptionCount[] {
  if (kind === 'tick') {
    return [
      { value: 'true', label: 'Yes', count: counts.get('true') ?? 0 },
      { value: 'false', label: 'No', count: counts.get('false') ?? 0 },
    ];
  }
  const known = (field.options ?? []).map((option) =>
    typeof option === 'string' ? { value: option, label: option } : option,
  );
  const listed = known.map(({ value, label }) => ({ value, label, count: counts.get(value) ?? 0 }));
  const values = new Set(known.map((option) => option.value));
  const others = [...counts]
    .filter(([value]) => !values.has(value))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([value, count]) => ({ value, label: value, count }));
  return [...listed, ...others];
}

/** Mean, median, lowest, highest and the distribution of a number's values (each with its count). */
function numberFigures(field: Field, counts: Map<number, number>) {
  const sorted = [...counts].sort((a, b) => a[0] - b[0]);
  let n = 0;
  let sum = 0;
  for (const [value, times] of sorted) {
    n += times;
    sum += value * times;
  }
  if (n === 0) {
    return {
      mean: null,
      median: null,
      min: null,
      max: null,
      distribution: field.type === 'rating' ? ratingBuckets(field, counts) : [],
    };
  }
  const low = (sorted[0] as [number, number])[0];
  const high = (sorted[sorted.length - 1] as [number, number])[0];
  return {
    mean: sum / n,
    median: median(sorted, n),
    min: low,
    max: high,
    distribution: field.type === 'rating' ? ratingBuckets(field, counts) : numberBuckets(sorted, low, high),
  };
}

/** The middle value of sorted (value, count) pairs; with an even count the mean of the middle two. */
function median(sorted: ReadonlyArray<[number, number]>, n: number): number {
  const at = (position: number): number => {
    let seen = 0;
    for (const [value, times] of sorted) {
      seen += times;
      if (position < seen) return value;
    }
    return (sorted[sorted.length - 1] as [number, number])[0];
  };
  return n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

/** A rating's every value from its lowest to its highest (1 to 5 unless set), each with its count. */
function ratingBuckets(field: Field, counts: Map<number, number>): Bucket[] {
  const low = field.min ?? 1;
  const high = field.max ?? 5;
  const buckets: Bucket[] = [];
  for (let value = low; value <= high && buckets.length < 100; value++)
    buckets.push({ from: value, to: value, count: counts.get(value) ?? 0 });
  // a value outside the range (the range changed since) keeps a bucket of its own
  for (const [value, count] of counts)
    if (value < low || value > high) buckets.push({ from: value, to: value, count });
  return buckets.sort((a, b) => a.from - b.from);
}

/** A step of 1, 2, 2.5 or 5 × 10ⁿ at least `rough`: buckets with edges a person reads at a glance. */
function niceStep(rough: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((step) => step >= rough) ?? rough;
}

/**
 * Whole numbers spanning fewer than 20 values: a bucket per value; anything else at most 10
 * buckets of a round width, the highest value counted in the last.
 */
function numberBuckets(sorted: ReadonlyArray<[number, number]>, low: number, high: number): Bucket[] {
  const whole = sorted.every(([value]) => Number.isInteger(value));
  if (whole && high - low < ONE_BUCKET_EACH) {
    const counts = new Map(sorted);
    return Array.from({ length: high - low + 1 }, (_, i) => ({
      from: low + i,
      to: low + i,
      count: counts.get(low + i) ?? 0,
    }));
  }
  let step = niceStep((high - low) / BUCKETS);
  if (whole) step = Math.max(1, Math.ceil(step));
  const start = Math.floor(low / step) * step;
  const total = Math.max(1, Math.ceil((high - start) / step));
  const counts = new Array<number>(total).fill(0);
  for (const [value, times] of sorted) {
    const index = Math.min(total - 1, Math.max(0, Math.floor((value - start) / step)));
    counts[index] = (counts[index] ?? 0) + times;
  }
  // edges as the decimal a person reads (0.1 × 3 is 0.30000000000000004 in binary)
  const edge = (i: number) => Number((start + i * step).toPrecision(12));
  return counts.map((n, i) => ({ from: edge(i), to: edge(i + 1), count: n }));
}
