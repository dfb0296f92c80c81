import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import { toCount } from '../../platform/db/dialect.js';
import type { Field, FormDefinition } from '../forms/schemas.js';
import { piiModeOf } from './pii.js';

/**
 * What a form's answers say, per field (API.md §8, GET /analytics/questions), counted by the
 * database from the stored JSON on both engines: nothing but the figures leaves it, so a form
 * with a hundred thousand responses costs a few scans, not a hundred thousand rows in memory.
 *
 *   one scan         how many responses, and per field how many answered it
 *   one scan         every choice field's options counted (a UNION ALL, one part per field)
 *   one scan         every number field's count, mean, min, max (one part per field)
 *   per number field its median (ORDER BY … LIMIT 2 OFFSET n/2) and its distribution (GROUP BY a bucket)
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
/** Whole numbers spanning at most this many values get a bucket each (a rating, an age group). */
const ONE_BUCKET_EACH = 20;

type Kind = 'choice' | 'many' | 'tick' | 'number' | 'text';
function kindOf(field: Field): Kind {
  if (field.type === 'select') return field.multiple ? 'many' : 'choice';
  if (field.type === 'checkbox') return 'tick';
  if (field.type === 'number' || field.type === 'rating') return 'number';
  return 'text';
}

/** How one engine reads a field's stored answer. Ids are `^[A-Za-z0-9_-]{1,64}$`, so a literal is safe. */
interface Dialect {
  /** The rows of the scope, with the answers as the engine reads them (`a`). */
  rows(scope: AnswerScope): RawBuilder<unknown>;
  answered(id: string): RawBuilder<unknown>;
  /** A single choice's value, where it is a string (else NULL). */
  text(id: string): RawBuilder<unknown>;
  /** `'true'`/`'false'` for a boolean answer (else NULL). */
  tick(id: string): RawBuilder<unknown>;
  /** A number answer as a double (else NULL). */
  number(id: string): RawBuilder<unknown>;
  /** Each string of the scope's list answers to a field, a row each (`v`). */
  elements(scope: AnswerScope, id: string): RawBuilder<unknown>;
  /** Whole buckets below a non-negative number: floor. */
  floor(value: RawBuilder<unknown>): RawBuilder<unknown>;
}

const inScope = (scope: AnswerScope) =>
  sql`form_id = ${scope.formId} and status in ('accepted', 'flagged') and created_at >= ${scope.from} and created_at <= ${scope.to}`;

const sqlite: Dialect = {
  rows: (scope) => sql`(select answers as a from submissions where ${inScope(scope)})`,
  answered: (id) => {
    const path = sql.lit(`$."${id}"`);
    return sql`(case json_type(a, ${path})
      when 'text' then json_extract(a, ${path}) <> ''
      when 'array' then json_array_length(a, ${path}) > 0
      when 'null' then 0
      when 'true' then 1 when 'false' then 1 when 'integer' then 1 when 'real' then 1 when 'object' then 1
      else 0 end)`;
  },
  text: (id) => {
    const path = sql.lit(`$."${id}"`);
    return sql`(case when json_type(a, ${path}) = 'text' then json_extract(a, ${path}) end)`;
  },
  tick: (id) => {
    const path = sql.lit(`$."${id}"`);
    return sql`(case when json_type(a, ${path}) in ('true', 'false') then json_type(a, ${path}) end)`;
  },
  number: (id) => {
    const path = sql.lit(`$."${id}"`);
    return sql`(case when json_type(a, ${path}) in ('integer', 'real') then json_extract(a, ${path}) * 1.0 end)`;
  },
  elements: (scope, id) => {
    const path = sql.lit(`$."${id}"`);
    return sql`(select j.value as v from submissions, json_each(submissions.answers, ${path}) as j
      where ${inScope(scope)} and json_type(submissions.answers, ${path}) = 'array' and j.type = 'text')`;
  },
  floor: (value) => sql`cast(${value} as integer)`,
};

const postgres: Dialect = {
  rows: (scope) => sql`(select answers::jsonb as a from submissions where ${inScope(scope)})`,
  answered: (id) => {
    const at = sql`a -> ${sql.lit(id)}`;
    return sql`(case jsonb_typeof(${at})
      when 'string' then (a ->> ${sql.lit(id)}) <> ''
      when 'array' then jsonb_array_length(${at}) > 0
      when 'boolean' then true when 'number' then true when 'object' then true
      else false end)::int`;
  },
  text: (id) => sql`(case when jsonb_typeof(a -> ${sql.lit(id)}) = 'string' then a ->> ${sql.lit(id)} end)`,
  tick: (id) => sql`(case when jsonb_typeof(a -> ${sql.lit(id)}) = 'boolean' then a ->> ${sql.lit(id)} end)`,
  number: (id) =>
    sql`(case when jsonb_typeof(a -> ${sql.lit(id)}) = 'number' then (a ->> ${sql.lit(id)})::float8 end)`,
  elements: (scope, id) =>
    sql`(select j.value #>> '{}' as v from submissions
      cross join lateral jsonb_array_elements(case when jsonb_typeof(answers::jsonb -> ${sql.lit(id)}) = 'array'
        then answers::jsonb -> ${sql.lit(id)} else '[]'::jsonb end) as j(value)
      where ${inScope(scope)} and jsonb_typeof(j.value) = 'string')`,
  floor: (value) => sql`floor(${value})::int`,
};

const number = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** The per-question summary of a form's answers in a scope (see the module's comment). */
export async function answerStats(
  database: Database,
  definition: FormDefinition,
  scope: AnswerScope,
): Promise<AnswerStats> {
  const dialect = database.engine === 'postgres' ? postgres : sqlite;
  const { db } = database;
  const fields = definition.fields;
  const withheld = (field: Field): WithheldBecause | undefined => {
    const mode = piiModeOf(field, definition);
    return mode === 'plain' ? undefined : mode;
  };

  // 1. how many responses, and per field how many answered it
  const answeredColumns = fields.map(
    (field, i) => sql`sum(${dialect.answered(field.id)}) as ${sql.ref(`q${i}`)}`,
  );
  const counted = await sql<Record<string, unknown>>`select count(*) as responses${
    answeredColumns.length > 0 ? sql`, ${sql.join(answeredColumns)}` : sql``
  } from ${dialect.rows(scope)} as s`.execute(db);
  const totals = counted.rows[0] ?? {};
  const responses = toCount(totals.responses as number);

  const questions: QuestionStats[] = fields.map((field, i) => {
    const question: QuestionStats = {
      fieldId: field.id,
      label: field.label,
      type: field.type,
      answered: toCount(totals[`q${i}`] as number),
    };
    const hidden = withheld(field);
    if (hidden) question.withheld = hidden;
    return question;
  });
  if (responses === 0) {
    for (const [i, field] of fields.entries()) fillEmpty(questions[i] as QuestionStats, field);
    return { responses, questions };
  }
  const shown = fields
    .map((field, i) => ({ field, i, kind: kindOf(field) }))
    .filter(({ field }) => !withheld(field));

  // 2. every choice field's options, counted in one statement
  const choices = shown.filter(({ kind }) => kind === 'choice' || kind === 'many' || kind === 'tick');
  const choiceCounts = new Map<number, Map<string, number>>();
  if (choices.length > 0) {
    const parts = choices.map(({ field, i, kind }) => {
      if (kind === 'many')
        return sql`select ${sql.lit(i)} as q, v, count(*) as n from ${dialect.elements(scope, field.id)} as e group by v`;
      const value = kind === 'tick' ? dialect.tick(field.id) : dialect.text(field.id);
      return sql`select ${sql.lit(i)} as q, v, count(*) as n from (select ${value} as v from ${dialect.rows(scope)} as s) as c where v is not null group by v`;
    });
    const rows = await sql<{ q: number; v: string; n: number }>`${sql.join(parts, sql` union all `)}`.execute(
      db,
    );
    for (const row of rows.rows) {
      const q = Number(row.q);
      const counts = choiceCounts.get(q) ?? new Map<string, number>();
      counts.set(String(row.v), toCount(row.n));
      choiceCounts.set(q, counts);
    }
  }
  for (const { field, i, kind } of choices) {
    (questions[i] as QuestionStats).options = optionCounts(field, kind, choiceCounts.get(i) ?? new Map());
  }

  // 3. every number field's count, mean, min and max in one statement; then its median and buckets
  const numbers = shown.filter(({ kind }) => kind === 'number');
  if (numbers.length > 0) {
    const parts = numbers.map(
      ({ field, i }) =>
        sql`select ${sql.lit(i)} as q, count(v) as n, avg(v) as mean, min(v) as low, max(v) as high,
          sum(case when v <> round(v) then 1 else 0 end) as fractional
        from (select ${dialect.number(field.id)} as v from ${dialect.rows(scope)} as s) as c where v is not null`,
    );
    const rows = await sql<{
      q: number;
      n: number;
      mean: unknown;
      low: unknown;
      high: unknown;
      fractional: number;
    }>`${sql.join(parts, sql` union all `)}`.execute(db);
    for (const row of rows.rows) {
      const q = Number(row.q);
      const field = fields[q] as Field;
      const question = questions[q] as QuestionStats;
      const n = toCount(row.n);
      const low = number(row.low);
      const high = number(row.high);
      question.mean = n === 0 ? null : number(row.mean);
      question.min = low;
      question.max = high;
      question.median = null;
      question.distribution = [];
      if (n === 0 || low === null || high === null) {
        if (field.type === 'rating') question.distribution = ratingBuckets(field, new Map());
        continue;
      }
      const values = sql`(select ${dialect.number(field.id)} as v from ${dialect.rows(scope)} as s) as c`;
      const middle = await sql<{
        v: unknown;
      }>`select v from ${values} where v is not null order by v limit 2 offset ${Math.floor((n - 1) / 2)}`.execute(
        db,
      );
      const [first, second] = middle.rows.map((r) => Number(r.v));
      question.median =
        n % 2 === 1 || second === undefined ? (first ?? null) : ((first as number) + second) / 2;
      question.distribution = await distribution(db, dialect, values, field, {
        low,
        high,
        whole: toCount(row.fractional) === 0,
      });
    }
  }
  for (const [i, field] of fields.entries()) fillEmpty(questions[i] as QuestionStats, field);
  return { responses, questions };
}

/** The members a question of its kind always has, where no figure came (none answered, or withheld). */
function fillEmpty(question: QuestionStats, field: Field): void {
  if (question.withheld) return;
  const kind = kindOf(field);
  if ((kind === 'choice' || kind === 'many' || kind === 'tick') && !question.options)
    question.options = optionCounts(field, kind, new Map());
  if (kind === 'number' && question.distribution === undefined) {
    Object.assign(question, { mean: null, median: null, min: null, max: null });
    question.distribution = field.type === 'rating' ? ratingBuckets(field, new Map()) : [];
  }
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
 * A number's distribution, grouped by the database: a rating, or whole numbers spanning at
 * most 20 values, one bucket per value; anything else at most 10 buckets of a round width.
 */
async function distribution(
  db: Database['db'],
  dialect: Dialect,
  values: RawBuilder<unknown>,
  field: Field,
  range: { low: number; high: number; whole: boolean },
): Promise<Bucket[]> {
  const { low, high, whole } = range;
  if (field.type === 'rating' || (whole && high - low < ONE_BUCKET_EACH)) {
    const rows = await sql<{
      v: unknown;
      n: number;
    }>`select v, count(*) as n from ${values} where v is not null group by v`.execute(db);
    const counts = new Map(rows.rows.map((row) => [Number(row.v), toCount(row.n)]));
    if (field.type === 'rating') return ratingBuckets(field, counts);
    return Array.from({ length: high - low + 1 }, (_, i) => ({
      from: low + i,
      to: low + i,
      count: counts.get(low + i) ?? 0,
    }));
  }
  let step = niceStep((high - low) / BUCKETS);
  if (whole) step = Math.max(1, Math.ceil(step));
  const start = Math.floor(low / step) * step;
  const count = Math.max(1, Math.ceil((high - start) / step));
  const bucket = dialect.floor(sql`(v - ${start}) / ${step}`);
  const rows = await sql<{
    b: number;
    n: number;
  }>`select ${bucket} as b, count(*) as n from ${values} where v is not null group by 1`.execute(db);
  const counts = new Array<number>(count).fill(0);
  // the highest value sits on the last bucket's upper edge: it is counted in that bucket
  for (const row of rows.rows) {
    const index = Math.min(count - 1, Math.max(0, Number(row.b)));
    counts[index] = (counts[index] ?? 0) + toCount(row.n);
  }
  // edges as the decimal a person reads (0.1 × 3 is 0.30000000000000004 in binary)
  const edge = (i: number) => Number((start + i * step).toPrecision(12));
  return counts.map((n, i) => ({ from: edge(i), to: edge(i + 1), count: n }));
}
