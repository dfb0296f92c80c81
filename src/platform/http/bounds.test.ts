import { describe, expect, it } from 'vitest';
import { Problem } from '../problem.js';
import { parseBound } from './bounds.js';

/** `from`/`to` of /responses and /analytics: ISO 8601 dates or date-times, UTC unless an offset says otherwise. */
describe('parseBound', () => {
  it.each([
    ['2026-03-01', 'from', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01', 'to', '2026-03-01T23:59:59.999Z'],
    ['2026-03-01T10:00', 'from', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01T10:00:00+02:00', 'from', '2026-03-01T08:00:00.000Z'],
    ['0000-01-01T01:30:00+01:00', 'from', '0000-01-01T00:30:00.000Z'],
  ] as const)('reads %s as %s bound %s', (text, name, expected) => {
    expect(parseBound(text, name)).toBe(expected);
  });

  it.each([
    '2026-02-30',
    '2026-13-01',
    'yesterday',
    // an offset that leaves the four-digit years is refused, not stored as "-000001-12-31…"
    '0000-01-01T00:30:00+01:00',
    '9999-12-31T23:00:00-02:00',
  ])('refuses %s with 400 invalid_parameter', (text) => {
    let thrown: unknown;
    try {
      parseBound(text, 'to');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Problem);
    expect((thrown as Problem).status).toBe(400);
    expect((thrown as Problem).code).toBe('invalid_parameter');
  });
});
