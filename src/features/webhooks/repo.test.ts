import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup } from '../../../test/support/factories.js';
import { insertWebhook, type StoredWebhook, subscribedWebhooks } from './repo.js';

/** The webhooks an event goes to: sorted in code (repo.ts says why), so the order is this test's to hold. */
describe('the webhooks subscribed to an event', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('are the enabled ones of the forms and events asked for, oldest first, the id breaking a tie', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, { status: 'live' });
    const other = await createForm(t, owner.token, { status: 'live' });
    const webhook = (id: string, createdAt: string, changes: Partial<StoredWebhook> = {}): StoredWebhook => ({
      id,
      workspaceId: owner.workspaceId,
      environment: 'development',
      formId: form.id,
      event: 'response.created',
      url: 'https://example.com/hook',
      secretCiphertext: null,
      format: 'standard',
      enabled: true,
      createdAt,
      ...changes,
    });
    // inserted out of order: a database returns rows in whatever order its plan reads them
    const rows = [
      webhook('wh_c', '2026-01-03T00:00:00.000Z'),
      webhook('wh_b', '2026-01-01T00:00:00.000Z'),
      webhook('wh_off', '2026-01-01T00:00:00.000Z', { enabled: false }),
      webhook('wh_other_event', '2026-01-01T00:00:00.000Z', { event: 'response.updated' }),
      webhook('wh_d', '2026-01-02T00:00:00.000Z', { formId: other.id }),
      webhook('wh_a', '2026-01-01T00:00:00.000Z'),
    ];
    await t.app.intake.database.transaction(async (trx) => {
      for (const row of rows) await insertWebhook(trx, row);
    });
    const found = await t.app.intake.database.transaction((trx) =>
      subscribedWebhooks(trx, [form.id, other.id], ['response.created']),
    );
    expect(found.map((w) => w.id)).toEqual(['wh_a', 'wh_b', 'wh_d', 'wh_c']);
    // as many values bound, split otherwise between forms and events: two statements, not one
    const ask = (formIds: string[], events: string[]) =>
      t.app.intake.database.transaction(async (trx) =>
        (await subscribedWebhooks(trx, formIds, events)).map((w) => w.id),
      );
    for (let round = 0; round < 2; round++) {
      expect(await ask([form.id], ['response.created', 'response.updated'])).toEqual([
        'wh_a',
        'wh_b',
        'wh_other_event',
        'wh_c',
      ]);
      expect(await ask([form.id, other.id], ['response.updated'])).toEqual(['wh_other_event']);
    }
  });
});
