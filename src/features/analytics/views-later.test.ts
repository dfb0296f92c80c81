import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  isolatedStorage,
  startInstance,
  type TestApp,
  testConfig,
} from '../../../test/support/app.js';
import { createForm, signup } from '../../../test/support/factories.js';
import { findForm } from '../forms/repo.js';
import { EventRecorder } from './commands.js';

/**
 * The hosted page's views are stored behind its answer (issue 24): queued, the views of a busy
 * moment written by one statement, every one of them counted once per session, stored before the
 * database closes on shutdown, and one view whose form is gone never costs the others theirs.
 */
describe('views stored behind the page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitPublic: 1_000_000 });
  });
  afterAll(() => t.close());

  const viewsOf = async (formId: string) =>
    (
      await t.app.intake.database.db
        .selectFrom('form_events')
        .select(['session_id'])
        .where('form_id', '=', formId)
        .where('type', '=', 'view')
        .execute()
    ).length;

  it('counts every view of many at once, and GET /analytics reads them at once', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, { status: 'live' });
    const pages = await Promise.all(
      Array.from({ length: 40 }, () => t.request({ method: 'GET', url: `/f/${form.id}` })),
    );
    expect(pages.map((page) => page.status)).toEqual(Array(40).fill(200));
    const analytics = await t.request({
      method: 'GET',
      url: `/analytics?environment=development&form_id=${form.id}`,
      auth: owner.token,
    });
    expect(analytics.status, analytics.text).toBe(200);
    expect(analytics.body.totals.views).toBe(40);
    expect(await viewsOf(form.id)).toBe(40);
  });

  it('stores one view per session however often it is queued, and the others when a form is gone', async () => {
    const owner = await signup(t);
    const kept = await createForm(t, owner.token, { status: 'live' });
    const gone = await createForm(t, owner.token, { status: 'live' });
    const stored = async (id: string) => {
      const form = await findForm(t.app.intake.database.db, id);
      if (!form) throw new Error(`form ${id} not found`);
      return form;
    };
    const recorder = new EventRecorder(t.app.intake);
    const keptForm = await stored(kept.id);
    const goneForm = await stored(gone.id);
    const deleted = await t.request({ method: 'DELETE', url: `/forms/${gone.id}`, auth: owner.token });
    expect(deleted.status, deleted.text).toBe(204);
    const log = t.app.log;
    for (const session of ['a', 'b', 'a', 'c', 'b'])
      recorder.recordLater(keptForm, 'view', `s-${session}`, log);
    recorder.recordLater(goneForm, 'view', 's-x', log);
    await recorder.flush();
    expect(await viewsOf(kept.id)).toBe(3);
    expect(await viewsOf(gone.id)).toBe(0);
  });
});

describe('views queued when the service stops', () => {
  it('are stored before the database closes', async () => {
    const { storage, drop } = await isolatedStorage();
    const config = testConfig({ ...storage, rateLimitPublic: 1_000_000 });
    try {
      const app = await startInstance(config);
      const first = app.app;
      const owner = await signup(app);
      const form = { body: await createForm(app, owner.token, { status: 'live' }) };
      const pages = await Promise.all(
        Array.from({ length: 25 }, () => first.inject({ method: 'GET', url: `/f/${form.body.id}` })),
      );
      expect(pages.every((page) => page.statusCode === 200)).toBe(true);
      await first.close();

      const { app: second } = await startInstance(config);
      try {
        const views = await second.intake.database.db
          .selectFrom('form_events')
          .select('session_id')
          .where('form_id', '=', form.body.id)
          .where('type', '=', 'view')
          .execute();
        expect(views.length).toBe(25);
      } finally {
        await second.close();
      }
    } finally {
      await drop();
    }
  });
});
