import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRules } from '../forms/definition.js';
import { CONDITION_OPS, type Condition, type Field, type FormDefinition } from '../forms/schemas.js';
import { compileValidator, lengthOf } from './validator.js';

/**
 * Property-based tests of the submission validator (API.md §6.1 and the logic of §5.4):
 * random form definitions (every field type, random constraints, random logic over every
 * operator) and random answers (arbitrary JSON, and values biased toward valid ones).
 *
 *   (a) compileValidator(definition)(answers) never throws;
 *   (b) when it reports no errors, the answers it keeps satisfy every rule of the form, as
 *       judged by the independent, straightforward oracle below, and reflect the submission;
 *   (c) errors name only ids of the definition's fields or of the given answers;
 *   (d) conversely, answers the oracle finds valid are accepted, and kept as the oracle says.
 *
 * Seeded: a failure prints its seed and path, and reproduces with the same numbers
 * (SEED=… RUNS=… in the environment explore further). The examples at the end are the
 * failures these properties found, kept as plain tests.
 */

const SEED = Number(process.env.SEED ?? 20_261_121);
const RUNS = Number(process.env.RUNS ?? 600);
const params = (numRuns = RUNS) => ({ seed: SEED, numRuns });

type Answers = Record<string, unknown>;
type ConditionValue = string | number | boolean | null | Array<string | number | boolean>;

// --- generators ----------------------------------------------------------------------------------

/** Field ids, including names that live on Object.prototype. */
const ID_POOL = [
  'a',
  'b',
  'c',
  'd',
  'e',
  'name',
  'email_2',
  'x-1',
  'constructor',
  'toString',
  'valueOf',
  // `__proto__` is refused as a field id when a form is saved; the validator still copes (see below)
];
const STRING_TYPES = ['text', 'email', 'textarea', 'url', 'phone', 'hidden'] as const;
const ALL_TYPES = [...STRING_TYPES, 'select', 'number', 'rating', 'checkbox', 'date'] as const;

/** Safe patterns (accepted by the form checks) with generators of matching values. */
const PATTERNS: Array<{ pattern: string; matching: fc.Arbitrary<string> }> = [
  { pattern: '[a-z]+', matching: fc.stringMatching(/^[a-z]{1,8}$/) },
  { pattern: '\\d{3}-\\d{4}', matching: fc.stringMatching(/^\d{3}-\d{4}$/) },
  { pattern: 'yes|no', matching: fc.constantFrom('yes', 'no') },
  { pattern: '[A-Z][a-z]*', matching: fc.stringMatching(/^[A-Z][a-z]{0,6}$/) },
  { pattern: '.*', matching: fc.string({ maxLength: 6 }) },
  { pattern: '(?:ab)+', matching: fc.integer({ min: 1, max: 4 }).map((n) => 'ab'.repeat(n)) },
  { pattern: '\\p{L}+', matching: fc.constantFrom('é', 'Ωμέγα', 'abc', 'ß', '日本') },
  { pattern: '[^@\\s]+@example\\.com', matching: fc.constantFrom('jo@example.com', 'a.b@example.com') },
  { pattern: '😀{1,3}', matching: fc.integer({ min: 1, max: 3 }).map((n) => '😀'.repeat(n)) },
];

/** Values known to be valid for these types (so that the oracle's looser checks are exact on them). */
const GOOD_EMAILS = ['a@b.co', '  a@b.co ', 'jo@example.com', ' x+y@sub.example.net\t'];
const GOOD_URLS = ['https://example.com', 'http://a.example/b?c=d', 'https://x.org/path#frag'];
const GOOD_PHONES = ['+1 555 0100', '(030) 1234-5678', '123', '+44.20.7946.0958'];
/** Near misses and oddities for the string types. */
const BAD_STRINGS = [
  'not an email',
  'a@b',
  '@example.com',
  'a@@b.co',
  'ftp://example.com',
  'javascript:alert(1)',
  '12',
  '++1 555',
  'abc-defg',
  '2026-02-30',
  '2026-1-1',
  '0000-01-01',
  '\uD800',
  '😀😀😀😀',
  'é',
];
const OPTION_POOL = ['a', 'b', 'c', 'Yes', 'No', '1', '2', '10', ' spaced ', 'é', '😀', ' '];

const someString = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom(...BAD_STRINGS, ...GOOD_EMAILS, ...GOOD_URLS, ...GOOD_PHONES),
);

const lengthBounds = fc
  .record({
    minLength: fc.option(fc.nat(6), { nil: undefined }),
    maxLength: fc.option(fc.nat(12), { nil: undefined }),
  })
  .map(({ minLength, maxLength }) =>
    minLength !== undefined && maxLength !== undefined && minLength > maxLength
      ? { minLength: maxLength, maxLength: minLength }
      : { minLength, maxLength },
  );

const numberBound = fc.oneof(
  fc.integer({ min: -20, max: 20 }),
  fc.double({ min: -20, max: 20, noNaN: true }),
);
const numberBounds = fc
  .record({
    min: fc.option(numberBound, { nil: undefined }),
    max: fc.option(numberBound, { nil: undefined }),
  })
  .map(({ min, max }) =>
    min !== undefined && max !== undefined && min > max ? { min: max, max: min } : { min, max },
  );

const optionList = fc
  .uniqueArray(fc.constantFrom(...OPTION_POOL), { minLength: 1, maxLength: 6 })
  .chain((values) =>
    fc.tuple(
      ...values.map((value) => fc.oneof(fc.constant(value), fc.constant({ value, label: `Label ${value}` }))),
    ),
  );

/** Drops the members that are undefined, as a definition read from JSON would have them. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function fieldArbitrary(id: string, types: readonly Field['type'][] = ALL_TYPES): fc.Arbitrary<Field> {
  const common = {
    id: fc.constant(id),
    label: fc.constant(`Label of ${id}`),
    required: fc.option(fc.boolean(), { nil: undefined }),
    pii: fc.option(fc.boolean(), { nil: undefined }),
    piiMode: fc.option(fc.constantFrom('plain', 'masked', 'hashed', 'encrypted', 'dropped' as const), {
      nil: undefined,
    }),
  };
  return fc.constantFrom(...types).chain((type): fc.Arbitrary<Field> => {
    switch (type) {
      case 'select':
        return fc
          .record({ ...common, options: optionList, multiple: fc.option(fc.boolean(), { nil: undefined }) })
          .map((field) => compact({ ...field, type }));
      case 'number':
      case 'rating':
        return fc
          .record({ ...common, bounds: numberBounds, integer: fc.option(fc.boolean(), { nil: undefined }) })
          .map(({ bounds, ...field }) => compact({ ...field, ...bounds, type }));
      case 'checkbox':
      case 'date':
        return fc.record(common).map((field) => compact({ ...field, type }));
      default:
        return fc
          .record({
            ...common,
            lengths: lengthBounds,
            pattern: fc.option(fc.constantFrom(...PATTERNS.map((p) => p.pattern)), { nil: undefined }),
          })
          .map(({ lengths, ...field }) => compact({ ...field, ...lengths, type }));
    }
  });
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const validDate = fc.oneof(
  fc.integer({ min: new Date(0).setUTCFullYear(1, 0, 1), max: Date.UTC(9999, 11, 31) }).map((ms) => {
    const date = new Date(ms);
    return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
  }),
  fc.constantFrom('0001-01-01', '0050-06-15', '0099-12-31', '2000-02-29', '2024-02-29', '1999-12-31'),
);

/** Values that fit the field (mostly: patterns and lengths may still disagree). */
function likelyValid(field: Field): fc.Arbitrary<unknown> {
  const options = (field.options ?? []).map((option) => (typeof option === 'string' ? option : option.value));
  switch (field.type) {
    case 'select':
      return field.multiple
        ? fc.array(fc.constantFrom(...options), { minLength: 1, maxLength: 4 })
        : fc.constantFrom(...options);
    case 'number':
    case 'rating': {
      const min = field.min ?? (field.type === 'rating' ? 1 : -1e6);
      const max = field.max ?? (field.type === 'rating' ? 5 : 1e6);
      const integer = field.integer ?? field.type === 'rating';
      if (integer && Math.ceil(min) <= Math.floor(max))
        return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
      return min <= max ? fc.double({ min, max, noNaN: true, noDefaultInfinity: true }) : fc.constant(min);
    }
    case 'checkbox':
      return fc.boolean();
    case 'date':
      return validDate;
    case 'email':
      return fc.constantFrom(...GOOD_EMAILS);
    case 'url':
      return fc.constantFrom(...GOOD_URLS);
    case 'phone':
      return fc.constantFrom(...GOOD_PHONES);
    default: {
      const matching = PATTERNS.find((p) => p.pattern === field.pattern)?.matching;
      if (matching) return matching;
      return fc.string({
        unit: fc.constantFrom('a', 'é', '😀', ' ', 'Z', '1'),
        minLength: field.minLength ?? 0,
        maxLength: Math.max(field.maxLength ?? 8, field.minLength ?? 0),
      });
    }
  }
}

const EMPTYISH = [null, '', '   ', '\n\t', []] as const;

/** Anything a JSON body can carry, with a bias toward the field's own kind of value. */
function anyAnswer(field: Field): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: likelyValid(field) },
    { weight: 2, arbitrary: fc.constantFrom(...EMPTYISH) },
    { weight: 2, arbitrary: someString },
    {
      weight: 1,
      arbitrary: fc.oneof(fc.double(), fc.integer(), fc.boolean(), fc.constantFrom(-0, 1e308, -1e-308)),
    },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constantFrom(...OPTION_POOL)),
      ),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/** Condition values that sometimes hit: the field's own values, their trimmed form, numbers as text. */
/** The submitted answer, as is and in the forms normalisation gives it (trimmed, once, as text). */
function variantsOf(answered: unknown): ConditionValue[] {
  if (typeof answered === 'string') return [answered, answered.trim(), answered.slice(0, 2), ` ${answered}`];
  if (typeof answered === 'number') return [answered, String(answered), answered + 1];
  if (typeof answered === 'boolean') return [answered, !answered];
  if (Array.isArray(answered) && answered.every((item) => typeof item === 'string')) {
    const list = answered as string[];
    return [list, [...new Set(list)], list.slice(0, 1), ...list, [...list].reverse()];
  }
  return [null];
}

function conditionValue(field: Field | undefined, answered?: unknown): fc.Arbitrary<ConditionValue> {
  const scalar = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.integer({ min: -5, max: 12 }),
    fc.boolean(),
    fc.constantFrom('', ' ', '1', '10', '2', 'a', ...OPTION_POOL, ...GOOD_EMAILS.map((e) => e.trim())),
  );
  // the field's own kind of value (trimmed, as the validator keeps e-mail addresses)
  const own: fc.Arbitrary<ConditionValue> = field
    ? likelyValid(field).map((value): ConditionValue => {
        if (Array.isArray(value)) return value as string[];
        if (typeof value === 'string') return value.trim();
        if (typeof value === 'number' || typeof value === 'boolean') return value;
        return null;
      })
    : scalar;
  const ownScalar = own.map((value) => (Array.isArray(value) ? (value[0] ?? 'a') : (value ?? 'a')));
  return fc.oneof(
    { weight: answered === undefined ? 0 : 8, arbitrary: fc.constantFrom(...variantsOf(answered)) },
    { weight: 5, arbitrary: own },
    { weight: 3, arbitrary: scalar },
    { weight: 1, arbitrary: fc.constantFrom('', ' ') },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.array(fc.oneof(scalar, ownScalar), { maxLength: 4 }) },
  );
}

function conditionArbitrary(fields: Field[], depth: number, answers: Answers = {}): fc.Arbitrary<Condition> {
  const leaf = fc
    .tuple(fc.constantFrom(...fields), fc.constantFrom(...CONDITION_OPS))
    .chain(([field, op]): fc.Arbitrary<Condition> => {
      if (op === 'isEmpty' || op === 'isNotEmpty') return fc.constant({ field: field.id, op });
      const answered = get(answers, field.id);
      if (op === 'in') {
        return fc
          .array(conditionValue(field, answered), { minLength: 0, maxLength: 4 })
          .map((values) => ({
            field: field.id,
            op,
            value: values.flat() as Array<string | number | boolean>,
          }))
          .map((c) => ({ ...c, value: c.value.filter((v) => v !== null) }));
      }
      return conditionValue(field, answered).map((value) => ({ field: field.id, op, value }));
    });
  if (depth <= 1) return leaf;
  const inner = conditionArbitrary(fields, depth - 1, answers);
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(inner, { minLength: 1, maxLength: 3 }).map((all) => ({ all })) },
    { weight: 1, arbitrary: fc.array(inner, { minLength: 1, maxLength: 3 }).map((any) => ({ any })) },
  );
}

/** Rules over the fields; their values drawn often from the answers (so that conditions hit). */
function rulesArbitrary(fields: Field[], answers: Answers = {}): fc.Arbitrary<Rules> {
  const ids = fields.map((field) => field.id);
  const rule = fc
    .record({
      when: conditionArbitrary(fields, 3, answers),
      show: fc.option(fc.subarray(ids), { nil: undefined }),
      hide: fc.option(fc.subarray(ids), { nil: undefined }),
    })
    .filter((r) => (r.show?.length ?? 0) + (r.hide?.length ?? 0) > 0)
    .map((r) => compact(r) as Rules[number]);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant([] as Rules) },
    { weight: 3, arbitrary: fc.array(rule, { maxLength: 4 }) },
  );
}

const fieldsArbitrary = fc
  .uniqueArray(fc.constantFrom(...ID_POOL), { minLength: 1, maxLength: 6 })
  .chain((ids) => fc.tuple(...ids.map((id) => fieldArbitrary(id))));

type Rules = FormDefinition['logic']['rules'];

function definitionOf(fields: Field[], rules: Rules): FormDefinition {
  return {
    fields,
    ui: { theme: 'auto', progress: 'steps', layout: 'one-by-one' },
    storage: { mode: 'owner', pii: 'plain' },
    logic: { rules },
    retention: null,
    notifications: null,
    autoResponse: null,
    spamProtection: null,
  };
}

const definitionArbitrary = (): fc.Arbitrary<FormDefinition> =>
  fieldsArbitrary.chain((fields) => rulesArbitrary(fields).map((rules) => definitionOf(fields, rules)));

/** An object with these own members, even `__proto__` (as JSON.parse makes them). */
function own(entries: Array<[string, unknown]>): Answers {
  const answers: Answers = {};
  for (const [key, value] of entries) {
    Object.defineProperty(answers, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return answers;
}

/** Answers to some of the fields (each value anything, biased valid), now and then an unknown id. */
function answersArbitrary(fields: Field[], answer = anyAnswer): fc.Arbitrary<Answers> {
  const perField = fields.map((field) =>
    fc.option(
      answer(field).map((value): [string, unknown] => [field.id, value]),
      { nil: undefined, freq: 4 },
    ),
  );
  const unknown = fc.option(
    fc.tuple(fc.constantFrom('unknown', 'hasOwnProperty', 'zzz', ...ID_POOL), fc.jsonValue({ maxDepth: 1 })),
    { nil: undefined, freq: 1 },
  );
  return fc
    .tuple(
      fc.tuple(...perField),
      fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: unknown }),
    )
    .map(([entries, extra]) => {
      const list = entries.filter((entry): entry is [string, unknown] => entry !== undefined);
      if (extra && !list.some(([id]) => id === extra[0])) list.push(extra);
      return own(list);
    });
}

/** A form and answers to it: fields, then answers, then rules whose conditions often read those answers. */
const formAndAnswers = (
  options: { logic: boolean } = { logic: true },
  answer?: (field: Field) => fc.Arbitrary<unknown>,
): fc.Arbitrary<[FormDefinition, Answers]> =>
  fieldsArbitrary.chain((fields) =>
    answersArbitrary(fields, answer).chain((answers) =>
      (options.logic ? rulesArbitrary(fields, answers) : fc.constant([] as Rules)).map(
        (rules): [FormDefinition, Answers] => [definitionOf(fields, rules), answers],
      ),
    ),
  );

/**
 * Small forms on the types whose answers are normalised (trimmed e-mail addresses, repeated
 * options, blank text, unticked boxes), with simple rules reading those answers: where the
 * logic could judge the answers as given while the answers as kept are stored.
 */
const FOCUS_TYPES = ['email', 'select', 'text', 'checkbox', 'number'] as const;
const focusedAnswer = (field: Field): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: likelyValid(field) },
    { weight: 2, arbitrary: fc.constantFrom('', ' ', '  \t') },
    {
      weight: 1,
      arbitrary: likelyValid(field).map((value) => (typeof value === 'string' ? ` ${value} ` : value)),
    },
  );
const focusedFormAndAnswers: fc.Arbitrary<[FormDefinition, Answers]> = fc
  .uniqueArray(fc.constantFrom('a', 'b', 'c', 'toString'), { minLength: 2, maxLength: 3 })
  .chain((ids) => fc.tuple(...ids.map((id) => fieldArbitrary(id, FOCUS_TYPES))))
  .chain((fields) =>
    answersArbitrary(fields, focusedAnswer).chain((answers) => {
      const ids = fields.map((field) => field.id);
      const rule = fc
        .record({
          when: conditionArbitrary(fields, 1, answers),
          show: fc.subarray(ids, { maxLength: 1 }),
          hide: fc.subarray(ids, { maxLength: 1 }),
        })
        .filter((r) => r.show.length + r.hide.length > 0);
      return fc
        .array(rule, { minLength: 1, maxLength: 2 })
        .map((rules): [FormDefinition, Answers] => [definitionOf(fields, rules), answers]);
    }),
  );

// --- the oracle: API.md §6.1 and §5.4 written out plainly ---------------------------------------

const has = (object: object, key: string) => Object.hasOwn(object, key);
const get = (object: Answers, key: string) => (has(object, key) ? object[key] : undefined);

/** No answer: nothing, null, only white space, or an empty list. */
function blank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return /^\s*$/u.test(value);
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** No answer to this field: blank, where an empty list is one only for a field that takes a list. */
function blankFor(field: Field, value: unknown): boolean {
  return blank(value) && !(Array.isArray(value) && field.type !== 'file' && !field.multiple);
}

/** A number, or text that reads as one. */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || blank(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const x = numeric(a);
  return x !== undefined && x === numeric(b);
}

function holds(condition: Condition, answers: Answers): boolean {
  if ('all' in condition) {
    for (const part of condition.all) if (!holds(part, answers)) return false;
    return true;
  }
  if ('any' in condition) {
    for (const part of condition.any) if (holds(part, answers)) return true;
    return false;
  }
  // an unticked box (false) reads as no answer: a page's post leaves it out
  const given = get(answers, condition.field);
  const answer = given === false ? undefined : given;
  const target = condition.value;
  const list = Array.isArray(answer) ? (answer as unknown[]) : undefined;
  if (target === false && condition.op === 'equals') return blank(answer);
  if (target === false && condition.op === 'notEquals') return !blank(answer);
  switch (condition.op) {
    case 'isEmpty':
      return blank(answer);
    case 'isNotEmpty':
      return !blank(answer);
    case 'equals':
    case 'notEquals': {
      let equal: boolean;
      if (blank(answer)) equal = false;
      else if (list && Array.isArray(target)) {
        // the same set of values
        equal =
          list.every((item) => target.some((t) => sameValue(item, t))) &&
          target.every((t) => list.some((item) => sameValue(item, t)));
      } else if (list) equal = list.every((item) => sameValue(item, target));
      else equal = sameValue(answer, target);
      return condition.op === 'equals' ? equal : !equal;
    }
    case 'contains':
    case 'notContains': {
      let found = false;
      if (list) found = list.some((item) => sameValue(item, target));
      else if (typeof answer === 'string' && target !== null && target !== undefined) {
        found = answer.indexOf(String(target)) !== -1;
      }
      return condition.op === 'contains' ? found : !found;
    }
    case 'in': {
      if (!Array.isArray(target) || blank(answer)) return false;
      const items = list ?? [answer];
      return items.some((item) => target.some((t) => sameValue(item, t)));
    }
    default: {
      if (blank(answer)) return false;
      const x = numeric(answer);
      const y = numeric(target);
      let order: number;
      if (x !== undefined && y !== undefined) order = Math.sign(x - y);
      else if (typeof answer === 'string' && typeof target === 'string')
        order = answer === target ? 0 : answer < target ? -1 : 1;
      else return false;
      if (condition.op === 'gt') return order > 0;
      if (condition.op === 'gte') return order >= 0;
      if (condition.op === 'lt') return order < 0;
      return order <= 0;
    }
  }
}

/** Fields hidden by the rules: a matching rule's `hide`, and every `show` target no matching rule shows. */
function hiddenBy(definition: FormDefinition, answers: Answers): Set<string> {
  const hidden = new Set<string>();
  const shown = new Set<string>();
  const showTargets = new Set<string>();
  for (const rule of definition.logic.rules) {
    const matched = holds(rule.when, answers);
    for (const id of rule.show ?? []) {
      showTargets.add(id);
      if (matched) shown.add(id);
    }
    if (matched) for (const id of rule.hide ?? []) hidden.add(id);
  }
  for (const id of showTargets) if (!shown.has(id)) hidden.add(id);
  return hidden;
}

/** Characters are code points: a surrogate pair counts once. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    count++;
  }
  return count;
}

function realDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return year >= 1 && days !== undefined && day >= 1 && day <= days;
}

function isWebUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return ['http:', 'https:'].includes(url.protocol) && url.hostname.length > 0;
}

/** What is wrong with one kept value of a field (empty list when nothing). */
function valueProblems(field: Field, value: unknown): string[] {
  const problems: string[] = [];
  const say = (what: string) =>
    problems.push(`${field.id} (${field.type}): ${what}: ${JSON.stringify(value)}`);
  if (blank(value)) say('a kept answer is blank');
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'hidden':
    case 'email':
    case 'url':
    case 'phone': {
      if (typeof value !== 'string') {
        say('not a string');
        break;
      }
      const length = codePoints(value);
      if (field.minLength !== undefined && length < field.minLength) say(`shorter than ${field.minLength}`);
      if (field.maxLength !== undefined && length > field.maxLength) say(`longer than ${field.maxLength}`);
      if (field.pattern !== undefined && !new RegExp(`^(?:${field.pattern})$`, 'u').test(value))
        say('pattern');
      if (field.type === 'email') {
        if (value !== value.trim()) say('e-mail not trimmed');
        if (value.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) say('not an e-mail address');
      }
      if (field.type === 'url' && !isWebUrl(value)) say('not an http(s) URL');
      if (field.type === 'phone') {
        const digits = value.replace(/[^0-9]/g, '').length;
        if (!/^\+?[0-9 ().-]+$/.test(value) || digits < 3 || value.length > 33) say('not a phone number');
      }
      break;
    }
    case 'number':
    case 'rating': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        say('not a finite number');
        break;
      }
      const rating = field.type === 'rating';
      const min = field.min ?? (rating ? 1 : Number.NEGATIVE_INFINITY);
      const max = field.max ?? (rating ? 5 : Number.POSITIVE_INFINITY);
      if ((field.integer ?? rating) && Math.trunc(value) !== value) say('not whole');
      if (value < min) say(`below ${min}`);
      if (value > max) say(`above ${max}`);
      break;
    }
    case 'select': {
      const values = (field.options ?? []).map((option) =>
        typeof option === 'string' ? option : option.value,
      );
      if (field.multiple) {
        if (!Array.isArray(value)) say('not a list');
        else {
          if (value.some((item) => typeof item !== 'string' || !values.includes(item)))
            say('not among the options');
          if (new Set(value).size !== value.length) say('repeated option');
        }
      } else if (typeof value !== 'string' || !values.includes(value)) say('not one of the options');
      break;
    }
    case 'checkbox':
      if (typeof value !== 'boolean') say('not a boolean');
      break;
    case 'date':
      if (typeof value !== 'string' || !realDate(value)) say('not a date');
      break;
  }
  return problems;
}

/**
 * Every way the kept answers break the form's rules, given what was submitted: unknown ids,
 * hidden fields answered, visible required fields unanswered, values of the wrong type or out
 * of their constraints, and answers lost or changed beyond normalisation.
 */
function ruleViolations(definition: FormDefinition, given: Answers, kept: Answers): string[] {
  const problems: string[] = [];
  const ids = new Set(definition.fields.map((field) => field.id));
  for (const id of Object.keys(given)) if (!ids.has(id)) problems.push(`unknown id ${id} was submitted`);
  for (const id of Object.keys(kept)) if (!ids.has(id)) problems.push(`unknown id ${id} was kept`);
  if (Object.getPrototypeOf(kept) !== Object.prototype && Object.getPrototypeOf(kept) !== null) {
    problems.push('the kept answers have an unexpected prototype');
  }
  const hidden = hiddenBy(definition, kept);
  const expected = normalised(definition, given);
  for (const field of definition.fields) {
    const present = has(kept, field.id);
    const value = get(kept, field.id);
    if (hidden.has(field.id)) {
      if (present) problems.push(`${field.id} is hidden but kept ${JSON.stringify(value)}`);
      if (!blank(get(given, field.id))) problems.push(`${field.id} is hidden but was answered`);
      continue;
    }
    if (field.required && (!present || blank(value) || (field.type === 'checkbox' && value !== true))) {
      problems.push(`${field.id} is required and visible but unanswered`);
    }
    if (present) problems.push(...valueProblems(field, value));
    if (!equalJson(get(expected, field.id), value)) {
      problems.push(
        `${field.id}: submitted ${JSON.stringify(get(given, field.id))}, kept ${JSON.stringify(value)}`,
      );
    }
  }
  return problems;
}

/** The answers as they should be kept: blanks gone, e-mail addresses trimmed, repeated options once. */
function normalised(definition: FormDefinition, given: Answers): Answers {
  const entries: Array<[string, unknown]> = [];
  for (const field of definition.fields) {
    let value = get(given, field.id);
    if (blankFor(field, value)) continue;
    if (field.type === 'email' && typeof value === 'string') value = value.trim();
    if (field.type === 'select' && field.multiple && Array.isArray(value)) value = [...new Set(value)];
    entries.push([field.id, value]);
  }
  for (const id of Object.keys(given)) {
    if (!definition.fields.some((field) => field.id === id)) entries.push([id, given[id]]);
  }
  return own(entries);
}

function equalJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => equalJson(x, b[i]));
  return false;
}

// --- the properties --------------------------------------------------------------------------------

describe('the validator, on random forms and answers', () => {
  it('the generated definitions are forms the service would save', async () => {
    const samples = fc.sample(definitionArbitrary(), { seed: SEED, numRuns: 150 });
    for (const definition of samples) {
      // Conditions are drawn whether or not they fit their field (API.md §5.4): the validator must
      // serve a form stored before they had to, so every other rule is held here, that one not.
      const draft = { title: 'Random', status: 'draft' as const, definition, webhooks: undefined };
      const errors = await checkRules(draft, { fitConditions: false });
      expect(errors, JSON.stringify(definition)).toEqual([]);
    }
    // and they use every field type, every operator and nested conditions
    const types = new Set(samples.flatMap((d) => d.fields.map((f) => f.type)));
    expect([...types].sort()).toEqual([...ALL_TYPES].sort());
    const ops = new Set<string>();
    let nested = 0;
    const visit = (condition: Condition) => {
      if ('all' in condition || 'any' in condition) {
        nested++;
        for (const part of 'all' in condition ? condition.all : condition.any) visit(part);
      } else ops.add(condition.op);
    };
    for (const definition of samples) for (const rule of definition.logic.rules) visit(rule.when);
    expect([...ops].sort()).toEqual([...CONDITION_OPS].sort());
    expect(nested).toBeGreaterThan(10);
  });

  it('(a) never throws', () => {
    fc.assert(
      fc.property(formAndAnswers(), ([definition, answers]) => {
        const result = compileValidator(definition)(answers);
        expect(Array.isArray(result.errors)).toBe(true);
      }),
      params(),
    );
    // nor on answers that are any JSON object at all
    fc.assert(
      fc.property(
        definitionArbitrary(),
        fc.dictionary(fc.constantFrom(...ID_POOL, 'other'), fc.jsonValue()),
        (definition, answers) => {
          compileValidator(definition)(answers);
        },
      ),
      params(),
    );
  });

  /** (b): accepted ⇒ the kept answers break no rule. Returns how many were accepted. */
  function acceptedAreValid(forms: fc.Arbitrary<[FormDefinition, Answers]>, numRuns: number) {
    let accepted = 0;
    let withLogic = 0;
    fc.assert(
      fc.property(forms, ([definition, answers]) => {
        const { errors, answers: kept } = compileValidator(definition)(answers);
        if (errors.length > 0) return;
        accepted++;
        if (definition.logic.rules.length > 0) withLogic++;
        expect(ruleViolations(definition, answers, kept)).toEqual([]);
      }),
      params(numRuns),
    );
    return { accepted, withLogic };
  }

  it('(b) what it accepts satisfies every rule of the form', () => {
    const { accepted, withLogic } = acceptedAreValid(formAndAnswers(), RUNS * 2);
    // the property is not vacuous
    expect(accepted).toBeGreaterThan(RUNS * 0.2);
    expect(withLogic).toBeGreaterThan(RUNS * 0.1);
  });

  it('(b) ... also on small forms whose rules read normalised answers', () => {
    const { withLogic } = acceptedAreValid(focusedFormAndAnswers, RUNS * 2);
    expect(withLogic).toBeGreaterThan(RUNS * 0.3);
  });

  it('(c) errors name only fields of the form or ids that were submitted', () => {
    let failures = 0;
    fc.assert(
      fc.property(formAndAnswers(), ([definition, answers]) => {
        const { errors } = compileValidator(definition)(answers);
        const named = new Set([...definition.fields.map((field) => field.id), ...Object.keys(answers)]);
        for (const error of errors) {
          expect(named.has(error.field), JSON.stringify(error)).toBe(true);
          expect(typeof error.code).toBe('string');
          expect(typeof error.message).toBe('string');
        }
        // at most one error per field
        expect(new Set(errors.map((error) => error.field)).size).toBe(errors.length);
        failures += errors.length > 0 ? 1 : 0;
      }),
      params(),
    );
    expect(failures).toBeGreaterThan(RUNS * 0.2);
  });

  /** (d): oracle-valid ⇒ accepted, and kept as the oracle says. Returns how many were valid. */
  function validAreAccepted(forms: fc.Arbitrary<[FormDefinition, Answers]>, numRuns: number): number {
    let valid = 0;
    fc.assert(
      fc.property(forms, ([definition, answers]) => {
        const expected = normalised(definition, answers);
        if (ruleViolations(definition, answers, expected).length > 0) return;
        valid++;
        const { errors, answers: kept } = compileValidator(definition)(answers);
        expect(errors).toEqual([]);
        expect(Object.keys(kept).sort()).toEqual(Object.keys(expected).sort());
        for (const id of Object.keys(expected))
          expect(equalJson(get(kept, id), get(expected, id)), id).toBe(true);
      }),
      params(numRuns),
    );
    return valid;
  }

  it('(d) answers the oracle finds valid are accepted and kept as it says', () => {
    const biased = (field: Field) =>
      fc.oneof(
        { weight: 9, arbitrary: likelyValid(field) },
        { weight: 1, arbitrary: fc.constantFrom(...EMPTYISH) },
      );
    expect(validAreAccepted(formAndAnswers({ logic: true }, biased), RUNS * 2)).toBeGreaterThan(RUNS * 0.2);
  });

  it('(d) ... also on small forms whose rules read normalised answers', () => {
    expect(validAreAccepted(focusedFormAndAnswers, RUNS * 2)).toBeGreaterThan(RUNS * 0.2);
  });

  it('the same validator gives the same answer twice (compiled state is not mutated)', () => {
    fc.assert(
      fc.property(formAndAnswers(), ([definition, answers]) => {
        const validate = compileValidator(definition);
        const first = validate(answers);
        const snapshot = JSON.stringify(answers);
        const second = validate(answers);
        expect(second).toEqual(first);
        expect(JSON.stringify(answers)).toBe(snapshot);
      }),
      params(200),
    );
  });
});

describe('examples the properties found', () => {
  const form = (fields: Field[], rules: Rules = []) => definitionOf(fields, rules);
  const text = (id: string, extra: Partial<Field> = {}): Field => ({ id, type: 'text', label: id, ...extra });

  it('fields named like members of Object.prototype are unanswered when not given', () => {
    const validate = compileValidator(
      form([text('constructor'), text('toString'), { id: 'valueOf', type: 'number', label: 'v' }]),
    );
    expect(validate({})).toEqual({ errors: [], answers: {} });
    const required = compileValidator(form([text('toString', { required: true })]));
    expect(required({}).errors).toEqual([expect.objectContaining({ field: 'toString', code: 'required' })]);
    expect(required(own([['toString', 'hello']]))).toEqual({ errors: [], answers: { toString: 'hello' } });
  });

  it('a field called __proto__ keeps its answer as an own member', () => {
    const { errors, answers } = compileValidator(form([text('__proto__')]))(own([['__proto__', 'kept']]));
    expect(errors).toEqual([]);
    expect(Object.keys(answers)).toEqual(['__proto__']);
    expect(JSON.stringify(answers)).toBe('{"__proto__":"kept"}');
    expect(Object.getPrototypeOf(answers)).toBe(Object.prototype);
  });

  it('the logic reads an e-mail address as it is kept (trimmed)', () => {
    const validate = compileValidator(
      form(
        [{ id: 'email', type: 'email', label: 'E-mail' }, text('company', { required: true })],
        [{ when: { field: 'email', op: 'equals', value: 'a@b.co' }, show: ['company'] }],
      ),
    );
    // `company` is shown (and so required) for the address that will be stored
    expect(validate({ email: '  a@b.co ' }).errors).toEqual([
      expect.objectContaining({ field: 'company', code: 'required' }),
    ]);
    expect(validate({ email: '  a@b.co ', company: 'ACME' })).toEqual({
      errors: [],
      answers: { email: 'a@b.co', company: 'ACME' },
    });
  });

  it('a blank answer is no answer for the logic either (contains " ")', () => {
    const validate = compileValidator(
      form(
        [text('note'), text('name', { required: true })],
        [{ when: { field: 'note', op: 'contains', value: ' ' }, hide: ['name'] }],
      ),
    );
    expect(validate({ note: '   ' }).errors).toEqual([
      expect.objectContaining({ field: 'name', code: 'required' }),
    ]);
    expect(validate({ note: 'a b' })).toEqual({ errors: [], answers: { note: 'a b' } });
  });

  it('a multiple-select answer compares as a set (repeats and order do not matter)', () => {
    const rules = (value: string[]): Rules => [
      { when: { field: 'pick', op: 'equals', value }, show: ['why'] },
    ];
    const fields: Field[] = [
      { id: 'pick', type: 'select', label: 'Pick', options: ['a', 'b'], multiple: true },
      text('why', { required: true }),
    ];
    const same = compileValidator(form(fields, rules(['b', 'a'])));
    expect(same({ pick: ['a', 'b', 'a'] }).errors).toEqual([
      expect.objectContaining({ field: 'why', code: 'required' }),
    ]);
    const different = compileValidator(form(fields, rules(['a', 'b'])));
    expect(different({ pick: ['a', 'a'] })).toEqual({ errors: [], answers: { pick: ['a'] } });
  });

  it('dates of the years 1 to 99 are dates; year 0 is not', () => {
    const validate = compileValidator(form([{ id: 'day', type: 'date', label: 'Day' }]));
    expect(validate({ day: '0050-06-15' })).toEqual({ errors: [], answers: { day: '0050-06-15' } });
    expect(validate({ day: '0001-01-01' }).errors).toEqual([]);
    expect(validate({ day: '0000-01-01' }).errors).toEqual([expect.objectContaining({ field: 'day' })]);
    expect(validate({ day: '1900-02-29' }).errors).toEqual([expect.objectContaining({ field: 'day' })]);
  });
});

describe('lengthOf', () => {
  it('counts code points as spreading the text does: pairs of surrogates as one, lone ones as one each', () => {
    const units = fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    });
    const mixed = fc.string({
      unit: fc.constantFrom('a', 'é', '😀', '\uD83D', '\uDE00', '\uDBFF', '\uDC00', 'z'),
    });
    for (const strings of [units, mixed, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })]) {
      fc.assert(
        fc.property(strings, (text) => lengthOf(text) === [...text].length),
        { numRuns: 500 },
      );
    }
    expect(lengthOf('😀é')).toBe(2);
    expect(lengthOf('\uDE00\uD83D')).toBe(2);
  });
});
