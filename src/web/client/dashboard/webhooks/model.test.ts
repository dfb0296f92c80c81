import { describe, expect, it } from 'vitest';
import { type Attempt, type Delivery, formatWords, newSecret, nextLook, outcome, POLL_MS } from './model.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const delivery = (partial: Partial<Delivery>): Delivery => ({
  id: 'dlv_1',
  webhookId: 'whk_1',
  eventId: 'evt_1',
  event: 'response.created',
  status: 'pending',
  attempts: [],
  nextAttemptAt: null,
  redeliveryOf: null,
  createdAt: '2026-11-26T11:59:59Z',
  updatedAt: '2026-11-26T11:59:59Z',
  ...partial,
});
const attempt = (partial: Partial<Attempt>): Attempt => ({
  attempt: 1,
  attemptedAt: '2026-11-26T11:59:59Z',
  statusCode: 500,
  error: null,
  durationMs: 12,
  ...partial,
});

describe('nextLook', () => {
  it('looks again soon for a delivery not tried yet, after POLL_MS for one tried', () => {
    expect(nextLook([delivery({})], NOW)).toBe(1000);
    expect(nextLook([delivery({ attempts: [attempt({})] })], NOW)).toBe(POLL_MS);
  });
  it('waits for the next attempt (just after it is due), the soonest of several', () => {
    const later = delivery({ attempts: [attempt({})], nextAttemptAt: '2026-11-26T12:00:30Z' });
    const sooner = delivery({ attempts: [attempt({})], nextAttemptAt: '2026-11-26T12:00:10Z' });
    expect(nextLook([later, sooner], NOW)).toBe(10_500);
  });
  it('does not look for a delivery done, or one whose next attempt is far off (Refresh shows it)', () => {
    expect(
      nextLook([delivery({ status: 'succeeded' }), delivery({ status: 'failed' })], NOW),
    ).toBeUndefined();
    expect(
      nextLook([delivery({ attempts: [attempt({})], nextAttemptAt: '2026-11-26T13:00:00Z' })], NOW),
    ).toBeUndefined();
  });
});

describe('the webhooks’ words', () => {
  it('says what an attempt got: a status, or why there was none', () => {
    expect(outcome(attempt({ statusCode: 410 }))).toBe('HTTP 410');
    expect(outcome(attempt({ statusCode: null, error: 'timeout' }))).toBe('timeout');
    expect(outcome(attempt({ statusCode: null, error: null }))).toBe('No answer');
  });
  it('names the formats', () => {
    expect(formatWords('otel')).toMatch(/OpenTelemetry/);
    expect(formatWords('legacy')).toMatch(/Intake JSON/);
  });
  it('makes a Standard Webhooks secret: whsec_ and 24 random bytes in base64, new each time', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(atob(secret.slice('whsec_'.length))).toHaveLength(24);
    expect(newSecret()).not.toBe(secret);
  });
});
