import { describe, expect, it } from 'vitest';
import {
  type Attempt,
  type Delivery,
  formatWords,
  healthWords,
  newSecret,
  nextLook,
  outcome,
  POLL_MS,
  verdictOf,
} from './model.js';

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
  summary: 'hooks.example.com answered 500 Internal Server Error',
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
  it('says what an attempt got in the server’s words', () => {
    expect(outcome(attempt({}))).toBe('hooks.example.com answered 500 Internal Server Error');
  });
  it('names the formats in plain words, never "legacy"', () => {
    expect(formatWords('otel')).toBe('OpenTelemetry logs');
    expect(formatWords('legacy')).toBe('Standard JSON');
  });
  it('gives a test its verdict', () => {
    const found = attempt({
      statusCode: null,
      summary: 'hooks.example.com could not be found (no such host name)',
    });
    expect(verdictOf(delivery({ status: 'failed', attempts: [found] }))).toEqual({
      ok: false,
      words: 'Failed: hooks.example.com could not be found (no such host name)',
    });
    const fine = attempt({ statusCode: 200, summary: 'hooks.example.com answered 200 OK' });
    expect(verdictOf(delivery({ status: 'succeeded', attempts: [fine] }))?.words).toBe(
      'Delivered: hooks.example.com answered 200 OK',
    );
    expect(verdictOf(delivery({}))?.words).toMatch(/^Sent, but no answer yet/);
  });
  it('words a webhook’s health, with the next retry when one is due', () => {
    const at = '2026-11-26T12:00:00Z';
    expect(healthWords({ state: 'untried', lastAttemptAt: null, lastOutcome: null, nextRetryAt: null })).toBe(
      'Nothing sent yet.',
    );
    const failing = healthWords({
      state: 'failing',
      lastAttemptAt: at,
      lastOutcome: 'hooks.example.com answered 503 Service Unavailable',
      nextRetryAt: '2026-11-26T12:00:30Z',
    });
    expect(failing).toMatch(
      /^Failing: the last attempt \(.+\) failed: hooks.example.com answered 503 Service Unavailable\./,
    );
    expect(failing).toContain(
      `Intake tries again at ${new Date('2026-11-26T12:00:30Z').toLocaleTimeString()}.`,
    );
    expect(healthWords({ state: 'failing', lastAttemptAt: at, lastOutcome: 'x', nextRetryAt: null })).toMatch(
      /No retry is due/,
    );
  });
  it('makes a Standard Webhooks secret: whsec_ and 24 random bytes in base64, new each time', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(atob(secret.slice('whsec_'.length))).toHaveLength(24);
    expect(newSecret()).not.toBe(secret);
  });
});
