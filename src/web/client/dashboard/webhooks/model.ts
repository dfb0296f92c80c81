import type { paths } from '../api/schema.js';
import { when } from '../ui/format.js';

/** What the webhooks view knows of the API (§7) and says in words: events, formats, states, times. */

export type Webhook = paths['/webhooks/{id}']['get']['responses'][200]['content']['application/json'];
export type Delivery =
  paths['/webhooks/{id}/deliveries']['get']['responses'][200]['content']['application/json']['data'][number];
export type Attempt = Delivery['attempts'][number];

/** The events a webhook may subscribe to (`webhook.test` is sent on request, never subscribed to). */
export type WebhookEvent = NonNullable<
  paths['/webhooks']['post']['requestBody']
>['content']['application/json']['event'];
export type WebhookFormat = 'legacy' | 'otel';

/** Each event, and what makes it happen: the select shows it in words (the API's name after), its hint more. */
export const EVENTS: ReadonlyArray<{ value: WebhookEvent; label: string; words: string }> = [
  {
    value: 'response.created',
    label: 'New response (response.created)',
    words: 'A response arrives (accepted or flagged as spam).',
  },
  {
    value: 'response.updated',
    label: 'Response changed (response.updated)',
    words: 'A response is read, starred or noted.',
  },
  {
    value: 'response.deleted',
    label: 'Response deleted (response.deleted)',
    words: 'A response is deleted.',
  },
  {
    value: 'response.partial',
    label: 'Answers saved on the way (response.partial)',
    words:
      'A respondent of a one-question-a-page form moves on or saves to continue later: the answers so far.',
  },
  { value: 'form.created', label: 'Form created (form.created)', words: 'A form is created.' },
  { value: 'form.updated', label: 'Form saved (form.updated)', words: 'This form is saved.' },
  { value: 'form.deleted', label: 'Form deleted (form.deleted)', words: 'This form is deleted.' },
];

/** The API's format names stay (`legacy`, `otel`); a person reads what each is for. */
export const FORMATS: ReadonlyArray<{ value: WebhookFormat; label: string; words: string }> = [
  {
    value: 'legacy',
    label: 'Standard JSON (recommended)',
    words:
      'One JSON object an event: what happened, when, and the response or form it is about. What Zapier, Make, n8n and your own code read.',
  },
  {
    value: 'otel',
    label: 'OpenTelemetry logs',
    words: 'A log record in OpenTelemetry’s JSON, for a monitoring system’s collector.',
  },
];

/** An event as a person reads it: "New response (response.created)"; an unknown one as it is. */
export const eventWords = (event: string) => EVENTS.find((known) => known.value === event)?.label ?? event;

export const formatWords = (format: string) => (format === 'otel' ? 'OpenTelemetry logs' : 'Standard JSON');

export const STATUS_WORDS: Record<Delivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  failed: 'Failed',
};

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes. */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

export { when };
export const time = (iso: string) => new Date(iso).toLocaleTimeString();

/** A delivery as a person tells it from the others: "webhook.test of 14:02:11". */
export const deliveryName = (delivery: Delivery) => `${delivery.event} of ${time(delivery.createdAt)}`;

/** What an attempt got, in the server's plain words ("hooks.example.com could not be found …"). */
export const outcome = (attempt: Attempt) => attempt.summary;

export type Health = Webhook['health'];

/** A test's verdict, as "Send test" says it: "Delivered: … answered 200 OK", "Failed: … could not be found". */
export function verdictOf(delivery: Delivery): { ok: boolean; words: string } | undefined {
  const last = delivery.attempts.at(-1);
  if (delivery.status === 'pending' || !last)
    return { ok: false, words: 'Sent, but no answer yet: its outcome appears under Deliveries.' };
  const ok = delivery.status === 'succeeded';
  return { ok, words: `${ok ? 'Delivered' : 'Failed'}: ${last.summary}` };
}

/** A webhook's health in a sentence: what happened last, and when it is tried again. */
export function healthWords(health: Health): string {
  if (health.state === 'untried') return 'Nothing sent yet.';
  const last = health.lastAttemptAt ? ` (${when(health.lastAttemptAt)})` : '';
  if (health.state === 'working')
    return `Working: the last delivery got through${last}: ${health.lastOutcome}.`;
  const retry = health.nextRetryAt
    ? ` Intake tries again at ${time(health.nextRetryAt)}.`
    : ' No retry is due: fix the address or the receiver, then send a test.';
  return `Failing: the last attempt${last} failed: ${health.lastOutcome}.${retry}`;
}

/** How often the deliveries are asked for again while one is on its way. */
export const POLL_MS = 2000;
/** A delivery not yet tried is usually sent at once: looked at again sooner. */
const FIRST_LOOK_MS = 1000;
/** A pending delivery tried later than this is not waited for: "Refresh" shows it then. */
const LONGEST_WAIT_MS = 60_000;

/**
 * When to ask for the deliveries again: soon while one is pending (just after its next attempt
 * is due), never when none is, or when the next attempt is far off.
 */
export function nextLook(deliveries: readonly Delivery[], now: number): number | undefined {
  let soonest: number | undefined;
  for (const delivery of deliveries) {
    if (delivery.status !== 'pending') continue;
    const due = delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) - now + 500 : 0;
    const wait = Math.max(delivery.attempts.length === 0 ? FIRST_LOOK_MS : POLL_MS, due);
    if (soonest === undefined || wait < soonest) soonest = wait;
  }
  return soonest !== undefined && soonest <= LONGEST_WAIT_MS ? soonest : undefined;
}
