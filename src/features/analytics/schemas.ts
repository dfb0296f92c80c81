import { Type } from '@sinclair/typebox';
import { EnvironmentQuery, Timestamp } from '../../platform/http/schemas.js';

/** Request and response schemas of the analytics routes (API.md §8). */

/** Visible ASCII, as browsers generate session ids (UUIDs, random tokens). */
export const SESSION_ID_PATTERN = '^[\\x21-\\x7e]{1,128}$';

export const EVENT_TYPES = ['view', 'start'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

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
  totals: Type.Object(counters),
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
