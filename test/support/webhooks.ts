import type { Static } from '@sinclair/typebox';
import { expect } from 'vitest';
import type { WebhookWithHealthOut } from '../../src/features/webhooks/schemas.js';
import type { TestApp } from './app.js';
import { type Page, typed } from './json.js';

/** What the webhook tests (src/features/webhooks/webhooks-*.test.ts) share. */

/** A webhook as the `/webhooks` resource shows it (never its secret; its health beside it). */
export type WebhookView = Static<typeof WebhookWithHealthOut>;
export type WebhookPage = Page<WebhookView>;

export const WEBHOOK_KEYS = [
  'createdAt',
  'enabled',
  'environment',
  'event',
  'format',
  'formId',
  'hasSecret',
  'health',
  'id',
  'url',
].sort();
/** A webhook as a form's `webhooks` member shows it: no health there. */
export const FORM_WEBHOOK_KEYS = WEBHOOK_KEYS.filter((key) => key !== 'health');

/** A webhook of the `/webhooks` resource as its form's `webhooks` member shows it. */
export function asFormMember<T extends { health?: unknown }>(webhook: T): Omit<T, 'health'> {
  const { health: _health, ...rest } = webhook;
  return rest;
}
export const HOOK = 'https://hooks.example.com/intake';
export const SECRET = 'whsec_dGhlIHNlY3JldCB0aGF0IG11c3Qgc3RheSBoaWRkZW4=';

/** A form view less its webhooks: what a webhook event carries as the form. */
export function withoutWebhooks<T extends { webhooks?: unknown }>(view: T): Omit<T, 'webhooks'> {
  const { webhooks: _webhooks, ...rest } = view;
  return rest;
}

/** The webhook requests and rows of one test file, against its app (`app()` is read at each call). */
export function webhooksApi(app: () => TestApp) {
  const db = () => app().app.intake.database.db;

  async function post(auth: string | undefined, body: unknown) {
    return typed<WebhookView>(await app().request({ method: 'POST', url: '/webhooks', auth, body }));
  }

  /** A webhook through the API (the test fails if it is refused). */
  async function createWebhook(auth: string, body: Record<string, unknown>): Promise<WebhookView> {
    const response = await post(auth, { event: 'response.created', url: HOOK, ...body });
    expect(response.status, response.text).toBe(201);
    return response.body;
  }

  const webhookRow = (id: string) =>
    db().selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  const webhookCount = async () => (await db().selectFrom('webhooks').select('id').execute()).length;

  return { db, post, createWebhook, webhookRow, webhookCount };
}
