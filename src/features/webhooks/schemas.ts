import { type Static, Type } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../../platform/http/schemas.js';
import { HEALTH_STATES } from './health.js';

/**
 * The webhook resource's schemas and enums (API.md §7), each defined once: `/webhooks`
 * and a form's `webhooks` member (features/forms) both use them.
 */

export const WEBHOOK_EVENTS = [
  'response.created',
  'response.updated',
  'response.deleted',
  'response.partial',
  'form.created',
  'form.updated',
  'form.deleted',
  'webhook.test',
] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/**
 * Every event but `webhook.test`: a test is sent to one webhook on request
 * (`POST /webhooks/{id}/test`), whatever it subscribes to, so subscribing to it means nothing.
 */
export const SUBSCRIBABLE_EVENTS = WEBHOOK_EVENTS.filter(
  (event): event is Exclude<WebhookEventName, 'webhook.test'> => event !== 'webhook.test',
);
export const WEBHOOK_FORMATS = ['legacy', 'otel'] as const;

export const EventSchema = StringEnum(SUBSCRIBABLE_EVENTS);
export const FormatSchema = StringEnum(WEBHOOK_FORMATS);
export const UrlSchema = Type.String({ minLength: 1, maxLength: 2000, description: 'http:// or https://' });
export const SecretSchema = Type.String({
  minLength: 1,
  maxLength: 500,
  description:
    'Signs deliveries; a `whsec_` secret is base64 after the prefix (Standard Webhooks). Write-only.',
});

/** One entry of a form's `webhooks` member, as a client sends it. */
export const WebhookInput = Type.Object(
  {
    event: StringEnum(WEBHOOK_EVENTS),
    url: Type.String({ minLength: 1, maxLength: 2000 }),
    secret: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    format: Type.Optional(StringEnum(WEBHOOK_FORMATS)),
    // read-form members, accepted so that a form read with GET can be sent back
    id: Type.Optional(Type.String()),
    formId: Type.Optional(Type.String()),
    environment: Type.Optional(Type.String()),
    enabled: Type.Optional(Type.Boolean()),
    hasSecret: Type.Optional(Type.Boolean()),
    createdAt: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export type WebhookInput = Static<typeof WebhookInput>;

/** Where a delivery stands: every attempt is recorded, the status is the last word. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const WebhookOut = Type.Object({
  id: Type.String(),
  formId: Type.String(),
  environment: Type.String(),
  event: Type.String(),
  url: Type.String(),
  format: Type.String(),
  enabled: Type.Boolean(),
  hasSecret: Type.Boolean(),
  createdAt: Timestamp,
});

/** How a webhook's deliveries are going (health.ts), in the answers of the `/webhooks` resource. */
export const WebhookHealthOut = Type.Object(
  {
    state: StringEnum(HEALTH_STATES, {
      description:
        'untried: nothing sent yet; working: the newest tried delivery got a 2xx; failing: its last attempt did not (it is retried at nextRetryAt, if at all)',
    }),
    lastAttemptAt: Type.Union([Timestamp, Type.Null()]),
    lastOutcome: Type.Union([Type.String(), Type.Null()], {
      description:
        'The last attempt in plain words, e.g. "hooks.example.com could not be found (no such host name)"',
    }),
    nextRetryAt: Type.Union([Timestamp, Type.Null()], {
      description:
        'When the failing delivery is tried again; null when no retry is due (a test, or the retries are spent)',
    }),
  },
  { description: "How the webhook's deliveries are going" },
);

/** A webhook as the `/webhooks` resource answers it: its health beside it (a form's `webhooks` member has none). */
export const WebhookWithHealthOut = Type.Composite([WebhookOut, Type.Object({ health: WebhookHealthOut })]);
