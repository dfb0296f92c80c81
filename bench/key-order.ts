import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { timeOrderedToken } from '../src/platform/ids.js';

/**
 * What a random key costs a B-tree insert, against a time-ordered one: views stored in a table
 * shaped as `form_events` (primary key form, type, session), `STORED_FIRST` of them first, then
 * `BATCHES` commits of `PER_BATCH` views as the page's batched views are written, with session
 * ids either 128 random bits or `timeOrderedToken`'s. Prints SQLite's CPU per view (the process's
 * own CPU: SQLite runs in it) and the wall time. Why the hosted page's tokens are time-ordered.
 *
 *   npx tsx bench/key-order.ts [stored first, default 500000] [batches, default 2000] [per batch, default 25]
 */

const STORED_FIRST = Number(process.argv[2] ?? 500_000);
const BATCHES = Number(process.argv[3] ?? 2000);
const PER_BATCH = Number(process.argv[4] ?? 25);

const randomToken = () => randomBytes(16).toString('base64url');

function measure(label: string, token: () => string): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-key-order-'));
  const db = new Database(path.join(dir, 'events.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`create table form_events (form_id text not null, type text not null, session_id text not null,
      workspace_id text not null, environment text not null, created_at text not null,
      primary key (form_id, type, session_id));
      create index form_events_environment_day on form_events (workspace_id, environment, created_at, form_id, type)`);
    const insert = db.prepare(
      `insert into form_events values (?, ?, ?, 'ws_1', 'production', ?) on conflict do nothing`,
    );
    const store = db.transaction((count: number) => {
      for (let i = 0; i < count; i++) insert.run('frm_1', 'view', token(), new Date().toISOString());
    });
    for (let stored = 0; stored < STORED_FIRST; stored += 25_000) store(25_000);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < BATCHES; i++) store(PER_BATCH);
    const used = process.cpuUsage(cpu);
    const views = BATCHES * PER_BATCH;
    console.log(
      `${label.padEnd(14)} ${((used.user + used.system) / views).toFixed(1)} µs of CPU a view, ` +
        `${(performance.now() - started).toFixed(0)} ms for ${views} views in ${BATCHES} commits`,
    );
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${STORED_FIRST} views stored first`);
for (let round = 0; round < 2; round++) {
  measure('random', randomToken);
  measure('time-ordered', () => timeOrderedToken());
}
