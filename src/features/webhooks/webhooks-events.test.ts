import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { signup } from '../../../test/support/factories.js';
import { createForm, type FormView } from '../../../test/support/forms.js';
import { typed } from '../../../test/support/json.js';
import { eventually } from '../../../test/support/poll.js';
import type { SubmissionView, SubmitResultView } from '../../../test/support/responses.js';
import { type WebhookView, webhooksApi, withoutWebhooks } from '../../../test/support/webhooks.js';
import { newId } from '../../platform/ids.js';

/**
 * API.md §7: the webhook resource — the events that the changes of forms and responses queue in their own
 * transaction, and their delivery to a real receiver.
 * The others: webhooks-manage, webhooks-access, webhooks-ssrf (shared helpers in test/support/webhooks.ts).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { db, createWebhook, webhookRow } = webhooksApi(() => t);

describe('events of forms and responses (queued in the transaction of the change)', () => {
  const RECEIVER = 'http://127.0.0.1:9/never-listening';

  async function deliveriesOf(formId: string) {
    return db()
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('form_id', '=', formId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The queued deliveries of `formId` since `seen`, with their bodies and outbox rows. */
  async function newDeliveries(formId: string, seen: number) {
    const rows = (await deliveriesOf(formId)).slice(seen);
    return Promise.all(
      rows.map(async (row) => {
        const outbox = await db().selectFrom('outbox').selectAll().where('id', '=', row.outbox_id).execute();
        return {
          row,
          outbox,
          body: JSON.parse(await t.app.intake.envelope.decrypt(row.body_ciphertext)),
        };
      }),
    );
  }

  async function ownerWithWebhooks(events: string[], overrides: Record<string, unknown> = {}) {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', ...overrides });
    const webhooks: Record<string, WebhookView> = {};
    for (const event of events)
      webhooks[event] = await createWebhook(user.token, { formId: form.id, event, url: RECEIVER });
    return { user, form, webhooks };
  }

  function expectOneDelivery(
    found: Awaited<ReturnType<typeof newDeliveries>>,
    webhook: Omit<WebhookView, 'health'> | undefined,
    event: string,
  ) {
    expect(found.map((d) => d.row.event)).toEqual([event]);
    const [delivery] = found;
    expect(delivery?.row.webhook_id).toBe(webhook!.id);
    expect(delivery?.outbox).toHaveLength(1);
    expect(delivery?.outbox[0]?.kind).toBe('webhook');
    expect(delivery?.body).toMatchObject({
      event,
      formId: webhook!.formId,
      environment: webhook!.environment,
    });
    return delivery?.body.data;
  }

  it('form.created: a webhook given with the new form hears of its creation, with the form as its owner reads it', async () => {
    const user = await signup(t);
    const created = typed<FormView>(
      await t.request({
        method: 'POST',
        url: '/forms',
        auth: user.token,
        body: {
          title: 'Hello',
          environment: 'development',
          fields: [],
          webhooks: [
            { event: 'form.created', url: RECEIVER },
            { event: 'form.updated', url: RECEIVER },
          ],
        },
      }),
    );
    expect(created.status).toBe(201);
    const found = await newDeliveries(created.body.id, 0);
    const data = expectOneDelivery(found, created.body.webhooks[0], 'form.created');
    // the form as its owner reads it, less its webhooks (other receivers' URLs are not a receiver's business)
    expect(data).toEqual(withoutWebhooks(created.body));
  });

  it('form.created is queued for no one when the form has no webhooks', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    expect(await deliveriesOf(form.id)).toEqual([]);
  });

  it('form.updated: one delivery per PUT, with the form as the PUT answered it; none for a refused PUT', async () => {
    const { user, form, webhooks } = await ownerWithWebhooks(['form.updated', 'form.deleted']);
    const updated = typed<FormView>(
      await t.request({
        method: 'PUT',
        url: `/forms/${form.id}`,
        auth: user.token,
        body: { title: 'New' },
      }),
    );
    expect(updated.status).toBe(200);
    const data = expectOneDelivery(await newDeliveries(form.id, 0), webhooks['form.updated'], 'form.updated');
    // the form as its owner reads it, less its webhooks (other receivers' URLs are not a receiver's business)
    expect(data).toEqual(withoutWebhooks(updated.body));
    expect(data.title).toBe('New');

    const stale = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { title: 'Stale' },
      headers: { 'if-match': '"1"' },
    });
    expect(stale.status).toBe(412);
    const invalid = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { title: 5 },
    });
    expect(invalid.status).toBe(400);
    expect(await deliveriesOf(form.id)).toHaveLength(1);
  });

  it('form.deleted: queued before the delete, surviving it, with the form as it was', async () => {
    const { user, form, webhooks } = await ownerWithWebhooks(['form.deleted', 'form.updated']);
    const before = typed<FormView>(
      await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token }),
    );
    const deleted = await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: user.token });
    expect(deleted.status).toBe(204);
    expect(await webhookRow(webhooks['form.deleted']!.id)).toBeUndefined();
    const data = expectOneDelivery(await newDeliveries(form.id, 0), webhooks['form.deleted'], 'form.deleted');
    // the form as its owner reads it, less its webhooks (other receivers' URLs are not a receiver's business)
    expect(data).toEqual(withoutWebhooks(before.body));
  });

  it('a disabled webhook, or one subscribed to another event, hears nothing', async () => {
    const { user, form, webhooks } = await ownerWithWebhooks(['form.updated', 'response.deleted']);
    await t.request({
      method: 'PATCH',
      url: `/webhooks/${webhooks['form.updated']!.id}`,
      auth: user.token,
      body: { enabled: false },
    });
    await t.request({ method: 'PUT', url: `/forms/${form.id}`, auth: user.token, body: { title: 'Quiet' } });
    expect(await deliveriesOf(form.id)).toEqual([]);
  });

  describe('responses', () => {
    async function submitted(events: string[], overrides: Record<string, unknown> = {}) {
      const owner = await ownerWithWebhooks(events, overrides);
      const response = typed<SubmitResultView>(
        await t.request({
          method: 'POST',
          url: `/forms/${owner.form.id}/submit`,
          body: { answers: { name: 'Ada', email: 'ada@example.com' } },
        }),
      );
      expect(response.status, response.text).toBe(201);
      // whatever the submit path queued (response.created) is not what these tests count
      return {
        ...owner,
        submissionId: response.body.id,
        seen: (await deliveriesOf(owner.form.id)).length,
      };
    }

    it('response.updated on read, unread, star and note, each once, with the submission as the route answered it', async () => {
      const { user, form, webhooks, submissionId, seen } = await submitted(
        ['response.updated', 'response.deleted'],
        {
          storage: { pii: 'encrypted' },
        },
      );
      const hook = webhooks['response.updated'];
      const call = async (path: string, body?: unknown) =>
        typed<SubmissionView>(
          await t.request({
            method: 'POST',
            url: `/responses/${submissionId}/${path}`,
            auth: user.token,
            body,
          }),
        );

      const read = await call('read');
      expect(read.status).toBe(200);
      let found = await newDeliveries(form.id, seen);
      expect(expectOneDelivery(found, hook, 'response.updated')).toEqual(read.body);
      expect(found[0]?.body.data.answers.email).toBe('ada@example.com'); // as its owner sees it
      expect(found[0]?.row.event_id).toBeTruthy();

      // nothing changed, nothing said
      expect((await call('read', { read: true })).status).toBe(200);
      expect(await deliveriesOf(form.id)).toHaveLength(seen + 1);

      const unread = await call('read', { read: false });
      found = await newDeliveries(form.id, seen + 1);
      expect(expectOneDelivery(found, hook, 'response.updated')).toEqual(unread.body);

      const star = await call('star', { starred: true });
      found = await newDeliveries(form.id, seen + 2);
      expect(expectOneDelivery(found, hook, 'response.updated')).toEqual(star.body);
      expect(star.body.starred).toBe(true);
      expect((await call('star', { starred: true })).status).toBe(200);
      expect(await deliveriesOf(form.id)).toHaveLength(seen + 3);

      const note = await call('notes', { text: 'Called back' });
      expect(note.status).toBe(200);
      found = await newDeliveries(form.id, seen + 3);
      const data = expectOneDelivery(found, hook, 'response.updated');
      expect(data).toEqual(note.body);
      expect(data.notes.map((n: { text: string }) => n.text)).toEqual(['Called back']);
      // the route answers what GET shows
      const get = typed<SubmissionView>(
        await t.request({
          method: 'GET',
          url: `/responses/${submissionId}?form_id=${form.id}&environment=development`,
          auth: user.token,
        }),
      );
      expect(note.body).toEqual(get.body);
    });

    it('concurrent requests making the same change are heard once (the database decides what changed)', async () => {
      const { user, form, webhooks, submissionId, seen } = await submitted(['response.updated']);
      const hook = webhooks['response.updated'];
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          t.request({
            method: 'POST',
            url: `/responses/${submissionId}/star`,
            auth: user.token,
            body: { starred: true },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      const found = await newDeliveries(form.id, seen);
      expect(expectOneDelivery(found, hook, 'response.updated').starred).toBe(true);
    });

    it('masked answers stay masked in the event', async () => {
      const { user, form, submissionId, seen } = await submitted(['response.updated'], {
        storage: { pii: 'masked' },
      });
      const star = typed<SubmissionView>(
        await t.request({
          method: 'POST',
          url: `/responses/${submissionId}/star`,
          auth: user.token,
          body: { starred: true },
        }),
      );
      const [delivery] = await newDeliveries(form.id, seen);
      expect(delivery?.body.data.answers.email).toBe(star.body.answers.email);
      expect(delivery?.body.data.answers.email).not.toBe('ada@example.com');
    });

    it('response.deleted names the submission (id, formId)', async () => {
      const { user, form, webhooks, submissionId, seen } = await submitted([
        'response.deleted',
        'response.updated',
      ]);
      const deleted = await t.request({
        method: 'DELETE',
        url: `/responses/${submissionId}`,
        auth: user.token,
      });
      expect(deleted.status).toBe(204);
      const data = expectOneDelivery(
        await newDeliveries(form.id, seen),
        webhooks['response.deleted'],
        'response.deleted',
      );
      expect(data).toEqual({ id: submissionId, formId: form.id });
    });

    it('a quarantined submission is never heard of: no event on star, note or delete', async () => {
      const { user, form } = await ownerWithWebhooks(['response.updated', 'response.deleted']);
      const id = newId('sub');
      await db()
        .insertInto('submissions')
        .values({
          id,
          workspace_id: user.workspaceId,
          environment: 'development',
          form_id: form.id,
          form_version: form.version,
          answers: JSON.stringify({ name: 'Spam' }),
          session_id: null,
          status: 'quarantined',
          read: 0,
          starred: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
      const call = (method: 'POST' | 'DELETE', path: string, body?: unknown) =>
        t.request({ method, url: `/responses/${id}${path}`, auth: user.token, body });
      expect((await call('POST', '/star', { starred: true })).status).toBe(200);
      expect((await call('POST', '/read')).status).toBe(200);
      expect((await call('POST', '/notes', { text: 'spam' })).status).toBe(200);
      expect((await call('DELETE', '')).status).toBe(204);
      expect(await deliveriesOf(form.id)).toEqual([]);
    });

    it('a refused change queues nothing', async () => {
      const { form, submissionId, seen } = await submitted(['response.updated', 'response.deleted']);
      const stranger = await signup(t);
      expect(
        (await t.request({ method: 'POST', url: `/responses/${submissionId}/read`, auth: stranger.token }))
          .status,
      ).toBe(403);
      expect(
        (await t.request({ method: 'DELETE', url: `/responses/${submissionId}`, auth: stranger.token }))
          .status,
      ).toBe(403);
      expect(await deliveriesOf(form.id)).toHaveLength(seen);
    });
  });
});

describe('events reach a real receiver', () => {
  it('form.updated and response.deleted are delivered at once after commit (the worker is nudged, not polled)', async () => {
    const received: Array<{ headers: http.IncomingHttpHeaders; body: any }> = [];
    const server = http.createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => {
        raw += chunk;
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body: JSON.parse(raw) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // a poll a minute away: only the nudge after commit can deliver within the test
    const app = await createTestApp({}, { outbox: { pollMs: 60_000 } });
    try {
      const user = await signup(app);
      const form = await createForm(app, user.token, {
        status: 'live',
        webhooks: [
          { event: 'form.updated', url: `http://127.0.0.1:${port}/forms` },
          { event: 'response.deleted', url: `http://127.0.0.1:${port}/responses` },
        ],
      });
      const waitFor = (count: number) =>
        eventually(() => expect(received).toHaveLength(count), { timeoutMs: 5_000, intervalMs: 50 });

      const updated = typed<FormView>(
        await app.request({
          method: 'PUT',
          url: `/forms/${form.id}`,
          auth: user.token,
          body: { title: 'Live' },
        }),
      );
      await waitFor(1);
      expect(received[0]?.body).toMatchObject({
        event: 'form.updated',
        formId: form.id,
        environment: 'development',
      });
      expect(received[0]?.body.data).toEqual(withoutWebhooks(updated.body));
      expect(received[0]?.headers['webhook-id']).toBe(received[0]?.body.id);

      const submitted = typed<SubmitResultView>(
        await app.request({
          method: 'POST',
          url: `/forms/${form.id}/submit`,
          body: { answers: { name: 'Ada', email: 'ada@example.com' } },
        }),
      );
      await app.request({ method: 'DELETE', url: `/responses/${submitted.body.id}`, auth: user.token });
      await waitFor(2);
      expect(received[1]?.body).toMatchObject({
        event: 'response.deleted',
        data: { id: submitted.body.id, formId: form.id },
      });
    } finally {
      await app.close();
      server.close();
    }
  });
});
