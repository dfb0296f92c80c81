import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  legacyDocument,
  otelDocument,
  type RenderInput,
  renderPayload,
  toAnyValue,
  unixNanos,
} from './payload.js';
import { deliveryHeaders, sign, signingKey } from './signature.js';

/**
 * The two payload formats of API.md §7 and the Standard Webhooks signature, as pure
 * functions (delivery.test.ts checks the same end to end against a real receiver).
 */

const input: RenderInput = {
  eventId: 'evt_01',
  event: 'response.created',
  occurredAt: '2026-11-21T10:02:06.123Z',
  observedAt: '2026-11-21T10:02:06.456Z',
  formId: 'contact',
  environment: 'production',
  webhookId: 'whk_01',
  submissionId: 'sub_01',
  data: {
    id: 'sub_01',
    answers: { name: 'Ada', email: 'a***@example.com', age: 36, score: 4.5, agree: true, tags: ['a', 'b'] },
    sessionId: null,
  },
};

describe('legacy format', () => {
  it('is {id, event, createdAt, formId, environment, data} and nothing else', () => {
    expect(JSON.parse(renderPayload('legacy', input))).toEqual({
      id: 'evt_01',
      event: 'response.created',
      createdAt: '2026-11-21T10:02:06.123Z',
      formId: 'contact',
      environment: 'production',
      data: input.data,
    });
    expect(Object.keys(legacyDocument(input))).toEqual([
      'id',
      'event',
      'createdAt',
      'formId',
      'environment',
      'data',
    ]);
  });

  it('is the default for any format but otel', () => {
    expect(renderPayload('something-else', input)).toBe(renderPayload('legacy', input));
  });
});

describe('OTLP/JSON AnyValue', () => {
  it('encodes each JSON type as the OTLP/JSON mapping says', () => {
    expect(toAnyValue('x')).toEqual({ stringValue: 'x' });
    expect(toAnyValue(true)).toEqual({ boolValue: true });
    // int64 is a decimal string in protobuf's JSON mapping
    expect(toAnyValue(42)).toEqual({ intValue: '42' });
    expect(toAnyValue(-7)).toEqual({ intValue: '-7' });
    expect(toAnyValue(4.5)).toEqual({ doubleValue: 4.5 });
    expect(toAnyValue(2 ** 60)).toEqual({ doubleValue: 2 ** 60 });
    expect(toAnyValue(null)).toEqual({});
    expect(toAnyValue([1, 'a'])).toEqual({
      arrayValue: { values: [{ intValue: '1' }, { stringValue: 'a' }] },
    });
    expect(toAnyValue({ a: { b: false }, gone: undefined })).toEqual({
      kvlistValue: {
        values: [
          { key: 'a', value: { kvlistValue: { values: [{ key: 'b', value: { boolValue: false } }] } } },
        ],
      },
    });
  });
});

describe('otel format', () => {
  const document = JSON.parse(renderPayload('otel', input));

  it('is an OTLP/JSON logs document: resourceLogs → scopeLogs → logRecords', () => {
    expect(Object.keys(document)).toEqual(['resourceLogs']);
    expect(document.resourceLogs).toHaveLength(1);
    const [resourceLogs] = document.resourceLogs;
    expect(resourceLogs.resource).toEqual({
      attributes: [
        { key: 'service.name', value: { stringValue: 'intake' } },
        { key: 'deployment.environment.name', value: { stringValue: 'production' } },
      ],
    });
    expect(resourceLogs.scopeLogs).toHaveLength(1);
    expect(resourceLogs.scopeLogs[0].scope).toEqual({ name: 'intake.webhooks', version: '1.0.0' });
    expect(resourceLogs.scopeLogs[0].logRecords).toHaveLength(1);
  });

  it('has one log record with the event name, nanosecond times as strings, INFO severity and the attributes', () => {
    const record = document.resourceLogs[0].scopeLogs[0].logRecords[0];
    expect(record.timeUnixNano).toBe('1795255326123000000');
    expect(record.observedTimeUnixNano).toBe('1795255326456000000');
    expect(record.eventName).toBe('response.created');
    expect(record.severityNumber).toBe(9);
    expect(record.severityText).toBe('INFO');
    expect(record.attributes).toEqual([
      { key: 'event.id', value: { stringValue: 'evt_01' } },
      { key: 'form.id', value: { stringValue: 'contact' } },
      { key: 'submission.id', value: { stringValue: 'sub_01' } },
      { key: 'webhook.id', value: { stringValue: 'whk_01' } },
      { key: 'deployment.environment.name', value: { stringValue: 'production' } },
    ]);
  });

  it('carries the data in the body as an AnyValue key-value list', () => {
    const record = document.resourceLogs[0].scopeLogs[0].logRecords[0];
    expect(record.body).toEqual({
      kvlistValue: {
        values: [
          { key: 'id', value: { stringValue: 'sub_01' } },
          {
            key: 'answers',
            value: {
              kvlistValue: {
                values: [
                  { key: 'name', value: { stringValue: 'Ada' } },
                  { key: 'email', value: { stringValue: 'a***@example.com' } },
                  { key: 'age', value: { intValue: '36' } },
                  { key: 'score', value: { doubleValue: 4.5 } },
                  { key: 'agree', value: { boolValue: true } },
                  {
                    key: 'tags',
                    value: { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: 'b' }] } },
                  },
                ],
              },
            },
          },
          { key: 'sessionId', value: {} },
        ],
      },
    });
  });

  it('leaves submission.id out when the event is not about a submission', () => {
    const { submissionId: _, ...formEvent } = input;
    const record = otelDocument({ ...formEvent, event: 'form.updated' }).resourceLogs[0]?.scopeLogs[0]
      ?.logRecords[0];
    expect(record?.attributes.map((a) => a.key)).toEqual([
      'event.id',
      'form.id',
      'webhook.id',
      'deployment.environment.name',
    ]);
  });

  it('converts milliseconds to nanoseconds exactly', () => {
    expect(unixNanos('1970-01-01T00:00:00.001Z')).toBe('1000000');
    expect(unixNanos('2026-11-21T10:02:06.999Z')).toBe('1795255326999000000');
  });
});

describe('Standard Webhooks signature', () => {
  const body = renderPayload('legacy', input);

  it('for a whsec_ secret, is what the standardwebhooks library signs and verifies', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const timestamp = 1_795_255_326;
    const ours = sign(secret, 'evt_01', timestamp, body);
    expect(ours).toBe(new Webhook(secret).sign('evt_01', new Date(timestamp * 1000), body));
    const headers = deliveryHeaders('evt_01', body, secret);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('for a plain secret, keys the HMAC with its UTF-8 bytes', () => {
    const secret = 'plain secret ✓';
    expect(signingKey(secret)).toEqual(Buffer.from(secret, 'utf8'));
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(`evt_01.1700000000.${body}`)
      .digest('base64');
    expect(sign(secret, 'evt_01', 1_700_000_000, body)).toBe(`v1,${expected}`);
  });

  it('headers: id, timestamp in Unix seconds, user agent, and no signature without a secret', () => {
    const headers = deliveryHeaders('evt_01', body, undefined, 1_795_255_326_999);
    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Intake-Webhooks/1.0',
      'webhook-id': 'evt_01',
      'webhook-timestamp': '1795255326',
    });
  });
});
