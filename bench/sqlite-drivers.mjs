// `node bench/sqlite-drivers.mjs [rounds]`: better-sqlite3 against Node's built-in `node:sqlite`
// on the statements of the service's hot paths: a multi-row INSERT of a submission batch in a
// transaction, the inbox's page of 50, a single-row insert. WAL with synchronous=NORMAL, as the
// service runs it; files in os.tmpdir(). Rounds alternate between the drivers; the median is shown.
// The figures and the choice they led to: docs/decisions.md, "Node.js and the SQLite driver".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import Better from 'better-sqlite3';

const ROWS = 20_000;
const BATCH = 50;
const READS = 5_000;
const ROUNDS = Number(process.argv[2] ?? 5);

const row = `(${Array(5).fill('?').join(',')})`;
const insertBatch = `insert into s values ${Array(BATCH).fill(row).join(',')}`;
const answers = JSON.stringify({
  name: 'Grace Hopper',
  email: 'grace@example.com',
  topic: 'sales',
  n: 7,
  message: 'x'.repeat(300),
});

function batchParams(batch) {
  const params = [];
  for (let j = 0; j < BATCH; j++) {
    const k = batch * BATCH + j;
    params.push(`sub_${k}`, 'contact', answers, new Date(1e12 + k).toISOString(), 'accepted');
  }
  return params;
}

const elapsedMs = (start) => Number(process.hrtime.bigint() - start) / 1e6;

function measure(name, open) {
  const file = path.join(os.tmpdir(), `intake-driver-bench-${name}.db`);
  const remove = () => {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  };
  remove();
  const db = open(file);
  db.exec('pragma journal_mode=WAL');
  db.exec('pragma synchronous=NORMAL');
  db.exec('create table s(id text primary key, form_id text, answers text, created_at text, status text)');
  db.exec('create index s_form on s(form_id, created_at, id)');
  const insert = db.prepare(insertBatch);
  const page = db.prepare(
    'select id, answers, created_at from s where form_id = ? order by created_at desc, id desc limit 50',
  );
  const single = db.prepare('insert into s values (?,?,?,?,?)');

  let start = process.hrtime.bigint();
  for (let i = 0; i < ROWS / BATCH; i++) {
    db.exec('begin');
    insert.run(...batchParams(i));
    db.exec('commit');
  }
  const batched = ROWS / (elapsedMs(start) / 1000);
  start = process.hrtime.bigint();
  for (let i = 0; i < READS; i++) page.all('contact');
  const pageUs = (elapsedMs(start) * 1000) / READS;
  start = process.hrtime.bigint();
  for (let i = 0; i < ROWS; i++) {
    single.run(`one_${i}`, 'contact', answers, new Date(2e12 + i).toISOString(), 'accepted');
  }
  const singleUs = (elapsedMs(start) * 1000) / ROWS;
  db.close();
  remove();
  return { batched, pageUs, singleUs };
}

const drivers = {
  'better-sqlite3': (file) => new Better(file),
  'node:sqlite': (file) => new DatabaseSync(file),
};
const results = Object.fromEntries(Object.keys(drivers).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, open] of Object.entries(drivers)) results[name].push(measure(name, open));
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`Node ${process.version}, ${ROUNDS} rounds, medians:`);
for (const [name, runs] of Object.entries(results)) {
  console.log(
    `${name.padEnd(15)} batch insert ${median(runs.map((r) => r.batched)).toFixed(0)} rows/s, ` +
      `page of 50 ${median(runs.map((r) => r.pageUs)).toFixed(0)} µs, ` +
      `single insert ${median(runs.map((r) => r.singleUs)).toFixed(1)} µs`,
  );
}
