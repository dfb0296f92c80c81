/**
 * The body a webhook receives, in the webhook's format (API.md §7):
 *   legacy  `{id, event, createdAt, formId, environment, data}`
 *   otel    an OTLP/JSON logs document (one log record per event), so a receiver can be an
 *           OpenTelemetry collector's OTLP/HTTP endpoint (`/v1/logs`) as it is.
 * The body is rendered once, at enqueue, and sent byte for byte on every attempt: the
 * signature covers exactly these bytes.
 */

export interface RenderInput {
  eventId: string;
  event: string;
  /** When the change happened (ISO 8601 with milliseconds). */
  occurredAt: string;
  /** When Intake recorded the event (ISO 8601); OTLP's observed time. */
  observedAt: string;
  formId: string;
  environment: string;
  webhookId: string;
  submissionId?: string;
  data: Record<string, unknown>;
}

export function renderPayload(format: string, input: RenderInput): string {
  return JSON.stringify(format === 'otel' ? otelDocument(input) : legacyDocument(input));
}

export function legacyDocument(input: RenderInput) {
  return {
    id: input.eventId,
    event: input.event,
    createdAt: input.occurredAt,
    formId: input.formId,
    environment: input.environment,
    data: input.data,
  };
}

/** OTLP/JSON `AnyValue` (opentelemetry-proto common.proto, JSON mapping). */
export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  /** int64: a decimal string in OTLP/JSON, as protobuf's JSON mapping writes 64-bit integers. */
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } }
  | { kvlistValue: { values: KeyValue[] } }
  /** An empty AnyValue stands for null. */
  | Record<string, never>;

export interface KeyValue {
  key: string;
  value: AnyValue;
}

export function toAnyValue(value: unknown): AnyValue {
  if (value === null || value === undefined) return {};
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  }
  if (typeof value === 'bigint') return { intValue: value.toString() };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(toAnyValue) } };
  if (typeof value === 'object')
    return { kvlistValue: { values: toKeyValues(value as Record<string, unknown>) } };
  return { stringValue: String(value) };
}

function toKeyValues(object: Record<string, unknown>): KeyValue[] {
  return Object.entries(object)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ({ key, value: toAnyValue(value) }));
}

const stringAttribute = (key: string, value: string): KeyValue => ({ key, value: { stringValue: value } });

/** `2026-11-21T10:02:06.123Z` → nanoseconds since the Unix epoch, as the decimal string OTLP/JSON uses. */
export function unixNanos(iso: string): string {
  return (BigInt(Date.parse(iso)) * 1_000_000n).toString();
}

/** SeverityNumber INFO (logs data model). */
const SEVERITY_INFO = 9;

export function otelDocument(input: RenderInput) {
  const attributes = [
    stringAttribute('event.id', input.eventId),
    stringAttribute('form.id', input.formId),
    ...(input.submissionId ? [stringAttribute('submission.id', input.submissionId)] : []),
    stringAttribute('webhook.id', input.webhookId),
    // also on the resource, where OpenTelemetry puts it; here too for receivers that read records alone
    stringAttribute('deployment.environment.name', input.environment),
  ];
  return {
    resourceLogs: [
      {
        resource: {
          attributes: [
            stringAttribute('service.name', 'intake'),
            stringAttribute('deployment.environment.name', input.environment),
          ],
        },
        scopeLogs: [
          {
            scope: { name: 'intake.webhooks', version: '1.0.0' },
            logRecords: [
              {
                timeUnixNano: unixNanos(input.occurredAt),
                observedTimeUnixNano: unixNanos(input.observedAt),
                severityNumber: SEVERITY_INFO,
                severityText: 'INFO',
                eventName: input.event,
                body: toAnyValue(input.data),
                attributes,
              },
            ],
          },
        ],
      },
    ],
  };
}
