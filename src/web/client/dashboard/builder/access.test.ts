import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessDraft, accessBodyOf, accessDraftOf, isoOf, localOf, timeZoneName } from './access.js';

const zone = process.env.TZ;
beforeAll(() => {
  // Node reads TZ again when it is set: the times below are Berlin's (UTC+01:00 in winter)
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const empty: AccessDraft = accessDraftOf(null);

describe('localOf and isoOf', () => {
  it('show a UTC moment in the browser’s zone, and send a typed one back as UTC', () => {
    expect(localOf('2026-12-01T08:30:00.000Z')).toBe('2026-12-01T09:30');
    expect(isoOf('2026-12-01T09:30')).toBe('2026-12-01T08:30:00.000Z');
    expect(localOf('2026-07-01T08:30:15Z')).toBe('2026-07-01T10:30:15');
    expect(isoOf('2026-07-01T10:30:15')).toBe('2026-07-01T08:30:15.000Z');
  });
  it('leave blank and nonsense as nothing', () => {
    expect(localOf(undefined)).toBe('');
    expect(localOf('not a date')).toBe('');
    expect(isoOf('  ')).toBeUndefined();
    expect(isoOf('tomorrow')).toBeUndefined();
  });
  it('name the zone and its offset', () => {
    expect(timeZoneName(new Date('2026-12-01T00:00:00Z'))).toBe('Europe/Berlin, UTC+01:00');
  });
});

describe('accessDraftOf', () => {
  it('reads the stored rules, never a password', () => {
    expect(
      accessDraftOf({
        opensAt: '2026-12-01T08:00:00.000Z',
        closesAt: '2026-12-31T23:00:00.000Z',
        maxSubmissions: 100,
        closedMessage: 'Thanks, all full.',
        oncePer: 'email',
        emailField: 'email',
        hasPassword: true,
      }),
    ).toEqual({
      opensAt: '2026-12-01T09:00',
      closesAt: '2027-01-01T00:00',
      maxSubmissions: '100',
      closedMessage: 'Thanks, all full.',
      oncePer: 'email',
      emailField: 'email',
      hasPassword: true,
      password: '',
      removePassword: false,
    });
  });
  it('gives no access blank controls', () => {
    expect(empty).toMatchObject({ opensAt: '', maxSubmissions: '', oncePer: '', hasPassword: false });
  });
});

describe('accessBodyOf', () => {
  it('is null when nothing is set (which removes a stored access)', () => {
    expect(accessBodyOf(empty)).toBeNull();
  });
  it('sends the rules set, times as ISO UTC, the limit as a number', () => {
    expect(
      accessBodyOf({
        ...empty,
        opensAt: '2026-12-01T09:00',
        closesAt: '2026-12-02T09:00',
        maxSubmissions: '5',
        closedMessage: 'Closed.',
        oncePer: 'browser',
        emailField: 'email',
      }),
    ).toEqual({
      opensAt: '2026-12-01T08:00:00.000Z',
      closesAt: '2026-12-02T08:00:00.000Z',
      maxSubmissions: 5,
      closedMessage: 'Closed.',
      oncePer: 'browser',
    });
  });
  it('sends the e-mail question only when counting by address; a blank message not at all', () => {
    expect(accessBodyOf({ ...empty, oncePer: 'email', emailField: 'email', closedMessage: '  ' })).toEqual({
      oncePer: 'email',
      emailField: 'email',
    });
  });
  it('leaves the password out unless it changes (a stored one stays)', () => {
    expect(accessBodyOf({ ...empty, hasPassword: true, maxSubmissions: '3' })).toEqual({ maxSubmissions: 3 });
    // a password and no rule: an access of its own, the password kept
    expect(accessBodyOf({ ...empty, hasPassword: true })).toEqual({});
  });
  it('sends a new password typed, and null to remove the stored one', () => {
    expect(accessBodyOf({ ...empty, password: 's3cret' })).toEqual({ password: 's3cret' });
    expect(accessBodyOf({ ...empty, hasPassword: true, password: 'n3w' })).toEqual({ password: 'n3w' });
    expect(accessBodyOf({ ...empty, hasPassword: true, removePassword: true, maxSubmissions: '2' })).toEqual({
      maxSubmissions: 2,
      password: null,
    });
  });
  it('is null when the password is removed and no rule is left', () => {
    expect(accessBodyOf({ ...empty, hasPassword: true, removePassword: true })).toBeNull();
  });
  it('round-trips a stored access unchanged', () => {
    const stored = {
      opensAt: '2026-12-01T08:00:00.000Z',
      closesAt: '2026-12-01T10:00:15.000Z',
      maxSubmissions: 7,
      oncePer: 'email' as const,
      emailField: 'email',
    };
    expect(accessBodyOf(accessDraftOf({ ...stored, hasPassword: true }))).toEqual(stored);
  });
});
