import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/platform/db/database.js';
import { crashRig, ownerWithLiveForm, type ServiceProcess } from './support/process.js';

/**
 * Saved progress across a crash (issue 23: "SIGKILL while partials are written: no partial is
 * ever counted or delivered as a submission; no acknowledged submission lost"). Concurrent
 * respondents walk a one-by-one form on the hosted page (each step saves a partial, the last
 * completes it), embedded so that the thank-you page names the submission; the service is
 * killed in the middle and started again on the same storage. Then every acknowledged
 * submission is there, accepted, with its answers; the forms' counts and the `response.created`
 * deliveries are exactly the accepted submissions; every partial left is still a partial, with
 * its progress row, and was told to webhooks only as `response.partial`.
 */

const CLIENTS = 12;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The page's hidden inputs, as its next post sends them. */
function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [input] of html.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(input)?.[1] ?? '';
  }
  return fields;
}

describe('saved progress across a crash', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('never counts or delivers a partial as a submission, and loses no acknowledged one', async () => {
    const rig = await crashRig({
      RATE_LIMIT_PUBLIC: '1000000',
      MONTHLY_QUOTA: '0',
      // development mode: the webhook below may name a loopback address (it is never reached)
      NODE_ENV: 'development',
    });
    cleanups.push(rig.cleanup);
    const { storage } = rig;
    let service: ServiceProcess = await rig.start();
    const { token, formId } = await ownerWithLiveForm(
      service.url,
      `partials-crash-${randomUUID()}@example.com`,
      {
        title: 'Steps under load',
        ui: { layout: 'one-by-one' },
        fields: [
          { id: 'name', type: 'text', label: 'Name', required: true },
          { id: 'city', type: 'text', label: 'City', required: true },
          { id: 'note', type: 'text', label: 'Note' },
        ],
        webhooks: [
          { event: 'response.created', url: 'http://127.0.0.1:9/created' },
          { event: 'response.partial', url: 'http://127.0.0.1:9/partial' },
        ],
      },
    );

    const url = service.url;
    const acknowledged: Array<{ id: string; name: string }> = [];
    let stopping = false;
    const step = async (fields: Record<string, string>) => {
      const answer = await fetch(`${url}/f/${formId}?embed=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: answer.status, html: await answer.text() };
    };
    /** One respondent after another: three pages each, some left after the first or second. */
    const client = async (index: number) => {
      for (let round = 0; !stopping; round++) {
        const name = `c${index}-r${round}`;
        try {
          const first = await fetch(`${url}/f/${formId}?embed=1`);
          let page = await first.text();
          let sent = await step({ ...hiddenInputs(page), name, _action: 'next' });
          if (round % 4 === 1) continue; // left after the first page: a partial stays
          page = sent.html;
          sent = await step({ ...hiddenInputs(page), city: 'Paris', _action: 'next' });
          if (round % 4 === 2) continue; // left after the second
          page = sent.html;
          sent = await step({ ...hiddenInputs(page), note: 'hi', _action: 'submit' });
          const id = /data-submission-id="([^"]+)"/.exec(sent.html)?.[1];
          if (sent.status === 200 && id) acknowledged.push({ id, name });
        } catch {
          // the connection died with the service: whatever was under way was never acknowledged
          if (stopping) return;
          await sleep(10);
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));
    const started = Date.now();
    while (acknowledged.length < 30 && Date.now() - started < 20_000) await sleep(20);
    await sleep(Math.random() * 300);
    expect(await service.stop('SIGKILL')).toBe('SIGKILL');
    stopping = true;
    await Promise.all(clients);
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);

    service = await rig.start();
    const auth = { authorization: `Bearer ${token}` };
    for (const { id, name } of acknowledged) {
      const read = await fetch(`${service.url}/responses/${id}?form_id=${formId}&environment=production`, {
        headers: auth,
      });
      expect(read.status, id).toBe(200);
      const body = (await read.json()) as { status: string; answers: Record<string, unknown> };
      expect(body.status, id).toBe('accepted');
      expect(body.answers).toEqual({ name, city: 'Paris', note: 'hi' });
    }
    const summary = (await (
      await fetch(`${service.url}/responses/summary?environment=production`, { headers: auth })
    ).json()) as {
      data: Array<{ formId: string; submissions: number }>;
    };
    expect(await service.stop('SIGTERM'), service.output().slice(-3000)).toBe(0);

    const database = await openDatabase({
      dataDir: storage.dataDir ?? '',
      databaseUrl: storage.databaseUrl,
      databaseSchema: storage.databaseSchema,
    });
    try {
      const { db } = database;
      const rows = await db
        .selectFrom('submissions')
        .select(['id', 'status'])
        .where('form_id', '=', formId)
        .execute();
      const accepted = rows.filter((row) => row.status === 'accepted').map((row) => row.id);
      const partials = rows.filter((row) => row.status === 'partial').map((row) => row.id);
      expect(rows.every((row) => row.status === 'accepted' || row.status === 'partial')).toBe(true);
      expect(partials.length).toBeGreaterThan(0);
      // the counts are the accepted submissions alone
      expect(summary.data.find((item) => item.formId === formId)?.submissions).toBe(accepted.length);
      // one response.created for each accepted submission, none for a partial (same transaction)
      const deliveries = await db
        .selectFrom('webhook_deliveries')
        .select(['event'])
        .where('form_id', '=', formId)
        .execute();
      expect(deliveries.filter((row) => row.event === 'response.created')).toHaveLength(accepted.length);
      expect(deliveries.some((row) => row.event === 'response.partial')).toBe(true);
      // every progress row is a live partial's; every partial has its progress row
      const progress = await db
        .selectFrom('partial_progress')
        .innerJoin('submissions', 'submissions.id', 'partial_progress.submission_id')
        .select(['submissions.id', 'submissions.status'])
        .where('partial_progress.form_id', '=', formId)
        .execute();
      expect(progress.filter((row) => row.status !== 'partial')).toEqual([]);
      expect(progress.map((row) => row.id).sort()).toEqual([...partials].sort());
    } finally {
      await database.close();
    }
  }, 120_000);
});
