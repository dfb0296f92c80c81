import { Type } from '@sinclair/typebox';
import { EnvironmentQuery, StringEnum, Timestamp } from '../../platform/http/schemas.js';

/** Request and response schemas of the analytics routes (API.md §8). */

/** Visible ASCII, as browsers generate session ids (UUIDs, random tokens). */
export const SESSION_ID_PATTERN = '^[\\x21-\\x7e]{1,128}$';

export const EVENT_TYPES = ['view', 'start'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * What `form_events` holds besides views and starts: a submission of a form that stores
 * nothing (`storage.mode: "none"`), by its status, under its id; no other row says it happened.
 */
export const FORWARDED_TYPES = {
  accepted: 'forwarded',
  flagged: 'forwarded_flagged',
  quarantined: 'forwarded_quarantined',
} as const;
export type StoredEventType = EventType | (typeof FORWARDED_TYPES)[keyof typeof FORWARDED_TYPES];

export const EventBody = Type.Object(
  {
    // a union of literals, not StringEnum: its refusal (`const`, then `anyOf`) is the answer clients know
    type: Type.Union(
      EVENT_TYPES.map((type) => Type.Literal(type)),
      { description: 'view: the form was shown; start: the visitor began filling it in' },
    ),
    sessionId: Type.String({
      minLength: 1,
      maxLength: 128,
      pattern: SESSION_ID_PATTERN,
      description: "The visitor's session: each type counts once per session and form (1-128 visible ASCII)",
    }),
  },
  { additionalProperties: false },
);

export const AnalyticsQuery = Type.Object({
  environment: Type.Optional(EnvironmentQuery),
  form_id: Type.Optional(Type.String({ maxLength: 200, description: 'Only this form' })),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'ISO 8601 date or date-time, inclusive (default: 29 days before to, at 00:00 UTC)',
    }),
  ),
  to: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'ISO 8601 date or date-time, inclusive; a date covers its whole day (default: end of today, UTC)',
    }),
  ),
});

const count = Type.Integer({ minimum: 0 });
const Rate = Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
  description: 'submissions / starts, to four decimals; null when there were no starts',
});
const counters = {
  views: count,
  starts: count,
  submissions: Type.Integer({
    minimum: 0,
    description: 'Accepted and flagged submissions (what reached the inbox)',
  }),
  flagged: count,
  quarantined: count,
  completionRate: Rate,
};

export const AnalyticsOut = Type.Object({
  environment: Type.String(),
  from: Timestamp,
  to: Timestamp,
  totals: Type.Object({
    ...counters,
    storageBytes: Type.Integer({
      minimum: 0,
      description:
        'Bytes the files of the environment (of the form, with form_id) take in storage now, whatever the range (API.md §12)',
    }),
  }),
  forms: Type.Array(Type.Object({ formId: Type.String(), title: Type.String(), ...counters })),
  daily: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date', description: 'A UTC day, YYYY-MM-DD' }),
      views: count,
      starts: count,
      submissions: count,
    }),
  ),
});

/** GET /analytics/questions (API.md §8): a form is required, the range as on GET /analytics. */
export const QuestionsQuery = Type.Object({
  environment: Type.Optional(EnvironmentQuery),
  form_id: Type.Optional(Type.String({ maxLength: 200, description: 'The form (required)' })),
  from: AnalyticsQuery.properties.from,
  to: AnalyticsQuery.properties.to,
});

const nullableNumber = (description: string) =>
  Type.Optional(
    Type.Union([Type.Number(), Type.Null()], { description: `${description}; null when none answered` }),
  );

export const QuestionOut = Type.Object({
  fieldId: Type.String(),
  label: Type.String(),
  type: Type.String({ description: "The field's type (API.md §5.1)" }),
  answered: Type.Integer({
    minimum: 0,
    description:
      'Responses with an answer to it (not empty; a checkbox left unticked is an answer, No). A field kept hashed, encrypted, masked or dropped counts as answered all the same (a dropped answer is stored as a marker holding nothing of it); answers stored before 2026-12-07 under dropped left no marker and are not counted',
  }),
  withheld: Type.Optional(
    StringEnum(['masked', 'hashed', 'encrypted', 'dropped'], {
      description:
        'Present when the answers are personal data kept this way: no values are shown, only `answered`',
    }),
  ),
  options: Type.Optional(
    Type.Array(Type.Object({ value: Type.String(), label: Type.String(), count: count }), {
      description:
        "select and checkbox: each option in the form's order with how many chose it (a checkbox: Yes `true`, No `false`); values no longer among the options follow",
    }),
  ),
  mean: nullableNumber('number and rating: the mean'),
  median: nullableNumber('number and rating: the median'),
  min: nullableNumber('number and rating: the lowest answer'),
  max: nullableNumber('number and rating: the highest answer'),
  distribution: Type.Optional(
    Type.Array(Type.Object({ from: Type.Number(), to: Type.Number(), count: count }), {
      description:
        'number and rating: buckets in order, from ≤ value < to (the last includes to); from = to is one value. A rating has one per value of its scale; whole numbers spanning at most 20 values one per value; else at most 10 of a round width',
    }),
  ),
});

export const QuestionsOut = Type.Object({
  formId: Type.String(),
  from: Timestamp,
  to: Timestamp,
  responses: Type.Integer({
    minimum: 0,
    description: 'Accepted and flagged responses in the range (quarantined ones are left out)',
  }),
  questions: Type.Array(QuestionOut, { description: "One per field, in the form's order" }),
});

/** GET /analytics/drop-off (API.md §15): a form is required, the range as on GET /analytics. */
export const DropOffQuery = QuestionsQuery;

export const DropOffOut = Type.Object({
  formId: Type.String(),
  from: Timestamp,
  to: Timestamp,
  layout: StringEnum(['one-by-one', 'classic'], {
    description:
      'How the form is shown now: one-by-one counts from the hosted page’s steps; classic (one page) counts its views and submissions',
  }),
  sessions: Type.Integer({
    minimum: 0,
    description: 'Sessions that reached any question within the range (a view, or a page sent)',
  }),
  completed: Type.Integer({
    minimum: 0,
    description: 'Of them, those whose session stored a submission (accepted, flagged or quarantined)',
  }),
  questions: Type.Array(
    Type.Object({
      fieldId: Type.String(),
      label: Type.String(),
      reached: Type.Integer({ minimum: 0, description: 'Sessions that reached the question' }),
      answered: Type.Integer({
        minimum: 0,
        description:
          'Sessions that answered it: one-by-one, a non-blank answer (a ticked box) that Next or the submission accepted; classic, the sessions that sent the page',
      }),
      leftHere: Type.Integer({
        minimum: 0,
        description:
          'Sessions that did not complete the form whose furthest question is this one (classic: all on the first question)',
      }),
    }),
    {
      description:
        "One per question (every field but hidden ones), in the form's page order; each session counted once per question",
    },
  ),
});
