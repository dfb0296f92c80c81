import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type Response, type TestApp } from './support/app.js';
import { createForm, createKey, signup } from './support/factories.js';

/**
 * A full disk under SQLite (issue 9 item 3): DATA_DIR on a 4 MiB tmpfs filled up with a
 * filler file. Every submission of a batch that cannot be committed is answered 503 with
 * `Retry-After`, none is acknowledged, the database stays consistent, and Intake recovers by
 * itself once space is back. Mounting needs root (as the test machines and CI run); without
 * it the same story is told by making COMMIT fail the way SQLite does on a full disk.
 */
const sqliteOnly = !process.env.DATABASE_URL;

/** A fresh 4 MiB tmpfs on a temporary folder, or undefined when mounting is not allowed. */
function mountSmallDisk(): string | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } catch {
    // something still holds a file open there (a failed test): detach it now, freed when released
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Tried once when the file is collected, so that the test's name can say which way it runs,
 * and unmounted at once: the hooks, which may not run (a filtered run), hold the real mount.
 */
function mayMount(): boolean {
  const dir = sqliteOnly ? mountSmallDisk() : undefined;
  if (dir) unmount(dir);
  return dir !== undefined;
}
const mountable = mayMount();

/** SQLite's own reaction to SQLITE_FULL at COMMIT: the transaction rolled back, the error thrown. */
function injectFullCommits(): { set: (full: boolean) => void } {
  const probe = new BetterSqlite3(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as BetterSqlite3.Statement;
  probe.close();
  const run = statement.run;
  let full = false;
  vi.spyOn(statement, 'run').mockImplementation(function (this: BetterSqlite3.Statement, ...args: unknown[]) {
    if (full && /^commit/i.test(this.source)) {
      this.database.exec('rollback');
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    }
    return run.apply(this, args as []);
  });
  return { set: (value) => (full = value) };
}

describe.skipIf(!sqliteOnly)('a full disk (SQLite)', () => {
  let t: TestApp;
  let formId: string;
  let secretKey: string;
  let dataDir: string;
  let fault: { set: (full: boolean) => void } | undefined;
  let disk: string | undefined;
  const filler = () => path.join(disk ?? '', 'filler');

  beforeAll(async () => {
    disk = mountable ? mountSmallDisk() : undefined;
    dataDir = disk ? path.join(disk, 'data') : fs.mkdtempSync(path.join(os.tmpdir(), 'intake-full-'));
    // The outbox worker writes too (its claims, its marks, the .eml files under DATA_DIR):
    // it meets the full disk as well, and must carry on once space is back.
    t = await createTestApp(
      { dataDir, monthlyQuota: 0, rateLimitPublic: 1_000_000 },
      { outbox: { pollMs: 50, leaseMs: 1000, retryDelaysMs: Array.from({ length: 100 }, () => 100) } },
    );
    const user = await signup(t);
    secretKey = (await createKey(t, user, 'secret')).key;
    formId = (
      await createForm(t, user.token, {
        status: 'live',
        notifications: { email: { enabled: true, to: ['owner@example.com'] } },
      })
    ).id;
    if (!disk) fault = injectFullCommits();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    try {
      await t?.close();
    } finally {
      if (disk) unmount(disk);
      else fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const submit = (name: string) =>
    t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { name, email: 'ada@example.com' } },
    });

  function fillDisk(): void {
    if (!disk) {
      fault?.set(true);
      return;
    }
    const fd = fs.openSync(filler(), 'w');
    const chunk = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      fs.closeSync(fd);
    }
  }

  function freeDisk(): void {
    if (!disk) {
      fault?.set(false);
      return;
    }
    fs.rmSync(filler());
  }

  const expectRefusal = (response: Response) => {
    expect(response.status, response.text).toBe(503);
    expect(response.body.code).toBe('service_unavailable');
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  };

  it(`answers 503 to every submission it cannot store, stays consistent, and recovers without a restart${
    mountable ? '' : ' (no root to mount a small disk: COMMIT made to fail with SQLITE_FULL instead)'
  }`, async () => {
    const health: number[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        health.push((await t.request({ method: 'GET', url: '/health' })).status);
        // sampling on purpose: /health every 20 ms throughout
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const accepted: string[] = [];
    const note = (response: Response) => {
      if (response.status === 201) accepted.push(response.body.id);
      else expectRefusal(response);
    };
    note(await submit('before'));
    expect(accepted).toHaveLength(1);

    fillDisk();
    // The WAL may still have room for a commit or two: write until the first refusal.
    let refused = false;
    for (let i = 0; i < 200 && !refused; i++) {
      const response = await submit(`filling ${i}`);
      note(response);
      refused = response.status === 503;
    }
    expect(refused).toBe(true);

    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(`full ${i}`)));
    for (const response of answers) note(response);
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 201 || status === 503)).toBe(true);
    // other writers: a session (sign-up), a key's last use (written off the request path)
    const [signedUp, keyed] = await Promise.all([
      t.request({
        method: 'POST',
        url: '/auth/signup',
        body: { email: 'late@example.com', password: 'correct horse battery' },
      }),
      t.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        auth: secretKey,
        body: { answers: { name: 'keyed', email: 'ada@example.com' } },
      }),
    ]);
    if (signedUp.status !== 201) expectRefusal(signedUp);
    note(keyed);

    // Reads still work on a full disk: nothing half-written, every acknowledged row there once.
    const { db } = t.app.intake.database;
    const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
    const storedIds = async () =>
      (await db.selectFrom('submissions').select('id').where('form_id', '=', formId).execute()).map(
        (row) => row.id,
      );
    // on tmpfs fdatasync cannot fail: no commit outcome is ambiguous, so exactly the 201s are stored
    expect((await storedIds()).sort()).toEqual([...accepted].sort());

    freeDisk();
    const freedAt = performance.now();
    let recoveredMs: number | undefined;
    while (recoveredMs === undefined && performance.now() - freedAt < 2000) {
      const response = await submit('after');
      note(response);
      if (response.status === 201) recoveredMs = performance.now() - freedAt;
    }
    expect(recoveredMs, 'accepted again within 2 s of freeing the disk').toBeDefined();
    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(`after ${i}`)));
    for (const response of after) note(response);
    expect(after.map((response) => response.status)).toEqual(after.map(() => 201));
    expect((await storedIds()).sort()).toEqual([...accepted].sort());
    const recheck = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    expect(recheck.rows).toEqual([{ integrity_check: 'ok' }]);

    // the outbox worker was not wedged: every accepted submission's notification goes out
    await vi.waitFor(
      async () => {
        const waiting = await db.selectFrom('outbox').select('id').where('status', '!=', 'done').execute();
        expect(waiting).toEqual([]);
      },
      { timeout: 8000, interval: 100 },
    );
    const mails = await db.selectFrom('outbox').select('id').where('kind', '=', 'email').execute();
    expect(mails).toHaveLength(accepted.length);

    watching = false;
    await watcher;
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((status) => status === 200 || status === 503)).toBe(true);
  });
});
