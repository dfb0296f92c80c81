import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Agent } from 'undici';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Database } from '../../platform/db/database.js';
import { type OutboxHandler, PermanentFailure } from '../../platform/outbox.js';
import { nowIso } from '../../platform/time.js';
import {
  type AttemptOutcome,
  type DeliveryStatus,
  type DeliveryToSend,
  disableWebhook,
  findDeliveryToSend,
  recordAttempt,
} from './delivery-repo.js';
import type { WebhookDeliveryPayload } from './events.js';
import { deliveryHeaders } from './signature.js';
import { guardedLookup, isForbiddenAddress, unguardedLookup } from './ssrf.js';

/**
 * Sending webhook deliveries (API.md §7): the outbox handler of kind `webhook`. Each
 * attempt POSTs the delivery's stored body to the webhook's current URL, signed with its
 * current secret, and is recorded (status code or error, duration, time). A 2xx within the
 * timeout succeeds; 410 disables the webhook and ends the delivery; anything else throws,
 * and the outbox worker retries on the §7 schedule; after the last attempt the delivery is
 * `failed`. A test (`webhook.test`) is tried once: its first failure is its verdict.
 */

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** Connections per receiving origin; the outbox worker bounds the sends in flight overall. */
const CONNECTIONS_PER_ORIGIN = 32;
/** Of a receiver's answer, only the status matters: at most this much of its body is read. */
const RESPONSE_READ_LIMIT = 64 * 1024;
const ERROR_TEXT_LIMIT = 500;

export interface WebhookSenderOptions {
  /** The SSRF guard (`ssrfGuardOn(config)`): private and loopback addresses are refused at connect time. */
  guard: boolean;
  /** Headers and body of the answer must arrive within this (default 10 s). */
  timeoutMs?: number;
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** POSTs over keep-alive connections; never follows redirects (a 3xx is a failure). */
export class WebhookSender {
  /** undici is loaded with the first delivery: a service whose forms have no webhooks never pays for it. */
  private client: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  private readonly timeoutMs: number;

  constructor(private readonly options: WebhookSenderOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  }

  private connect() {
    this.client ??= import('undici').then(({ Agent, request }) => ({
      request,
      agent: new Agent({
        connections: CONNECTIONS_PER_ORIGIN,
        keepAliveTimeout: 30_000,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        connectTimeout: this.timeoutMs,
        // Every connection's name resolution is checked, so a name that now points inside (DNS rebinding) is refused;
        // unguarded (loopback receivers allowed), a name is still looked up as the guard would, less the check.
        connect: { lookup: this.options.guard ? guardedLookup : unguardedLookup },
      }),
    }));
    return this.client;
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (this.options.guard) {
      // an IP literal is connected to without a lookup: judged here
      const host = URL.canParse(url) ? new URL(url).hostname.replace(/^\[(.*)\]$/, '$1') : '';
      if (net.isIP(host) !== 0 && isForbiddenAddress(host)) {
        return {
          statusCode: null,
          error: `${host} is a private or reserved address webhooks may not reach`,
          durationMs: elapsed(),
        };
      }
    }
    const { agent, request } = await this.connect();
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: agent,
        signal,
      });
      await response.body.dump({ limit: RESPONSE_READ_LIMIT, signal }).catch(() => undefined);
      return { statusCode: response.statusCode, error: null, durationMs: elapsed() };
    } catch (error) {
      const timedOut = signal.aborted || (error as { name?: string }).name?.includes('Timeout') === true;
      return {
        statusCode: null,
        error: timedOut ? `no answer within ${this.timeoutMs} ms` : describeError(error),
        durationMs: elapsed(),
      };
    }
  }

  async close(): Promise<void> {
    if (this.client) await (await this.client).agent.close();
  }
}

function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  // undici wraps the socket's error: the innermost cause says what happened
  for (let depth = 0; current instanceof Error && depth < 3; depth++) {
    const code = (current as { code?: unknown }).code;
    const text =
      typeof code === 'string' && !current.message.includes(code)
        ? `${code}: ${current.message}`
        : current.message;
    if (text && !parts.includes(text)) parts.push(text);
    current = (current as { cause?: unknown }).cause;
  }
  const text = parts.join(' ← ') || String(error);
  return text.length > ERROR_TEXT_LIMIT ? `${text.slice(0, ERROR_TEXT_LIMIT - 1)}…` : text;
}

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

/** Where and with what secret an attempt goes: the live webhook, or the snapshot when the form took it along. */
type Destination =
  | { url: string; secretCiphertext: string | null; refused?: undefined }
  | { refused: string };

function destinationOf(delivery: DeliveryToSend): Destination {
  if (delivery.live !== null) {
    if (!delivery.live.enabled) return { refused: 'not sent: the webhook is disabled' };
    return { url: delivery.live.url, secretCiphertext: delivery.live.secretCiphertext };
  }
  // form.deleted is queued just before the form, and its webhooks with it, are deleted
  if (delivery.event === 'form.deleted') {
    return { url: delivery.url, secretCiphertext: delivery.secretCiphertext };
  }
  return { refused: 'not sent: the webhook has been deleted' };
}

export function webhookHandler(
  database: Database,
  envelope: Envelope,
  sender: WebhookSender,
  logger: FastifyBaseLogger,
): OutboxHandler {
  const record = (id: string, outcome: AttemptOutcome, status: DeliveryStatus, disable?: string) =>
    database.transaction(async (trx) => {
      if (disable) await disableWebhook(trx, disable);
      return recordAttempt(trx, id, outcome, status);
    });

  return async (payload, { final }) => {
    const deliveryId = (payload as Partial<WebhookDeliveryPayload> | null)?.deliveryId;
    if (typeof deliveryId !== 'string')
      throw new PermanentFailure('a webhook outbox message without deliveryId');
    const delivery = await findDeliveryToSend(database.db, deliveryId);
    // gone (deleted with old data) or already done (a repeat after a crash): nothing to send
    if (delivery?.status !== 'pending') return;

    const destination = destinationOf(delivery);
    if (destination.refused !== undefined) {
      await record(
        delivery.id,
        { statusCode: null, error: destination.refused, durationMs: 0, attemptedAt: nowIso() },
        'failed',
      );
      throw new PermanentFailure(destination.refused);
    }
    const body = await envelope.decrypt(delivery.bodyCiphertext);
    const secret = destination.secretCiphertext
      ? await envelope.decrypt(destination.secretCiphertext)
      : undefined;
    const attemptedAt = nowIso();
    const result = await sender.send(destination.url, deliveryHeaders(delivery.eventId, body, secret), body);
    const outcome = { ...result, attemptedAt };

    if (isSuccess(result.statusCode)) {
      const attempt = await record(delivery.id, outcome, 'succeeded');
      logger.debug({ deliveryId: delivery.id, eventId: delivery.eventId, attempt }, 'webhook delivered');
      return;
    }
    if (result.statusCode === 410) {
      await record(delivery.id, outcome, 'failed', delivery.webhookId);
      throw new PermanentFailure(`the receiver answered 410 Gone: webhook ${delivery.webhookId} disabled`);
    }
    const reason = result.error ?? `the receiver answered ${result.statusCode}`;
    // a test is a question asked now ("does this URL work?"): its one answer is the verdict, never retried
    if (delivery.event === 'webhook.test') {
      await record(delivery.id, outcome, 'failed');
      throw new PermanentFailure(`webhook test failed: ${reason}`);
    }
    await record(delivery.id, outcome, final ? 'failed' : 'pending');
    throw new Error(reason);
  };
}
