import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromiumMissing, type InboxBrowserFigures, measureInboxInBrowser } from './inbox-browser.js';
import { drive, type LoadResult, probe, request, sequential, streamCsv, streamXlsx } from './load.js';
import { summarizeProfile } from './profile-summary.js';
import { cpuText, type EngineResult, type Results, renderMarkdown, renderTable } from './report.js';
import { countSubmissions, countViews, dropSchema, postgresAvailable, seedSubmissions } from './seed.js';
import {
  type Child,
  CpuTally,
  cpuBusy,
  cpuSecondsOf,
  loadAverage,
  postgresCpuSeconds,
  ROOT,
  rssOf,
  type StartedService,
  type Store,
  sampleRss,
  sleep,
  startCeiling,
  startService,
} from './service.js';
import { downloadSha256, MB, streamUpload, uploadBody } from './uploads.js';
import { measureWebhooks } from './webhooks.js';

/**
 * `npm run bench`: the ceiling (bare Fastify), then on SQLite and on PostgreSQL the submit
 * path under load, the hosted page, file uploads (three of 100 MB streamed, then many of 1 MB),
 * webhook deliveries, the inbox of a form with a million submissions (newest 50, CSV and XLSX exports),
 * start-up time and idle memory. Prints a table and writes bench/RESULTS.md.
 *
 *   npm run bench -- --profile     the service under `node --cpu-prof` (submit, files and inbox phases); prints
 *                                  where the time goes; no start-up figures, RESULTS.md left alone
 *   npm run bench -- --no-build    use dist/ as it is
 *   BENCH_ENGINES=sqlite  BENCH_DURATION=10  BENCH_WARMUP=3  BENCH_CONNECTIONS=50  BENCH_ROWS=1000000
 *   BENCH_QUIET_WAIT=30 (seconds to wait, before each measured part, for the other work on the machine to calm down)
 *   BENCH_PHASES=submit,page,files,webhooks (leave out the inbox at scale; any part left out, or one engine
 *                                  alone, leaves RESULTS.md alone;
 *                                  without `submit`, no ceiling and no submit load either)
 *   BENCH_CSV_LIMIT=60 (seconds after which a slow CSV or XLSX export is cut off; rows/s then covers the part read)
 *   BENCH_DATABASE_URL (else DATABASE_URL, else postgres://root@127.0.0.1:5432/test)
 */

const argv = process.argv.slice(2);

/** Every part of the benchmark: only a run of all of them, on both engines without a failure, rewrites RESULTS.md. */
const ALL_PHASES = ['submit', 'controls', 'page', 'files', 'webhooks', 'inbox'];
const complete = (phases: readonly string[]) => ALL_PHASES.every((phase) => phases.includes(phase));
const ENGINES = ['sqlite', 'postgres'] as const;
const env = process.env;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const numberFrom = (raw: string | undefined, fallback: number) => (raw ? Number(raw) : fallback);

const settings = {
  durationS: numberFrom(env.BENCH_DURATION, 10),
  warmupS: numberFrom(env.BENCH_WARMUP, 3),
  connections: numberFrom(env.BENCH_CONNECTIONS, 50),
  rows: numberFrom(env.BENCH_ROWS, 1_000_000),
  listRequests: 200,
  listConnections: 10,
  listDurationS: 5,
  quietWaitS: numberFrom(env.BENCH_QUIET_WAIT, 30),
  csvLimitS: numberFrom(env.BENCH_CSV_LIMIT, 60),
  engines: (env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim()) as Array<
    'sqlite' | 'postgres'
  >,
  databaseUrl: env.BENCH_DATABASE_URL ?? env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test',
  profile: argv.includes('--profile'),
  /** For a quick look at one part: `BENCH_PHASES=submit` leaves out the rest (RESULTS.md is then left alone). */
  phases: (env.BENCH_PHASES ?? ALL_PHASES.join(',')).split(',').map((p) => p.trim()),
  /** The file uploads: files of this many bytes streamed, then autocannon's uploads of `smallUploadBytes`. */
  bigUploadBytes: 100 * MB,
  /** How many of them (the median is reported; the RSS growth is over all of them). */
  bigUploads: 3,
  smallUploadBytes: 1 * MB,
  uploadConnections: 50,
  uploadDurationS: numberFrom(env.BENCH_UPLOAD_DURATION, 8),
  build: !argv.includes('--no-build'),
};

const PASSWORD = 'correct horse battery staple';

/** A Standard Webhooks secret: deliveries are signed as they would be in use. */
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

const ms = (value: number) => `${value.toFixed(0)} ms`;

/** Rounds of (response controls, plain) after a first plain run: the share reported is the median round's. */
const CONTROL_ROUNDS = 3;

/** The form every submit run fills in: five fields, the kind a contact form has. */
const FORM = {
  title: 'Contact sales',
  environment: 'development',
  status: 'live',
  fields: [
    { id: 'name', type: 'text', label: 'Your name', required: true, maxLength: 100 },
    { id: 'email', type: 'email', label: 'E-mail', required: true, pii: true },
    { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support', 'billing', 'other'] },
    { id: 'seats', type: 'number', label: 'Seats', min: 1, max: 10, integer: true },
    { id: 'message', type: 'textarea', label: 'Message', maxLength: 2000 },
  ],
};

/** The form of the upload phase: one file field taking files up to FILE_MAX_BYTES' default (100 MiB). */
const FILE_FORM = {
  title: 'Send us your files',
  environment: 'development',
  status: 'live',
  fields: [{ id: 'document', type: 'file', label: 'Document', maxFileSize: 100 * 1024 * 1024 }],
};

/** `[<id>]` is replaced by a unique id in every request (see drive). */
const SUBMISSION = JSON.stringify({
  answers: {
    name: 'Ada Lovelace',
    // unique per request like the rest: the form of the `controls` phase takes one answer per address
    email: 'ada.lovelace+[<id>]@example.com',
    topic: 'support',
    seats: 7,
    message:
      'Hello, we are a team of seven and would like to move our intake forms off spreadsheets. ' +
      'Could you tell us how the CSV export handles long answers? Reference [<id>].',
  },
  sessionId: '[<id>]',
});

const children = new Set<Child>();
const schemas = new Set<string>();
const tempDirs = new Set<string>();

function log(message: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)}  ${message}\n`);
}

async function cleanUp(): Promise<void> {
  await Promise.all([...children].map((child) => child.stop()));
  for (const schema of schemas) await dropSchema(settings.databaseUrl, schema).catch(() => {});
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
}

process.on('SIGINT', () => {
  log('interrupted: stopping the children and dropping the schemas');
  void cleanUp().finally(() => process.exit(130));
});

function machine(): Results['machine'] {
  const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const cpus = cpuinfo.split('\n').filter((line) => line.startsWith('processor')).length || os.cpus().length;
  const memKb = Number(/^MemTotal:\s+(\d+)/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0);
  return { cpu: model, cpus, ramGiB: memKb / 1024 / 1024, node: process.version, platform: os.release() };
}

/**
 * What else the machine is doing right before a measured run (the benchmark idles
 * meanwhile): waits up to BENCH_QUIET_WAIT seconds for the CPUs to be at most 15 % busy.
 */
async function quietness(label: string): Promise<string> {
  const deadline = performance.now() + settings.quietWaitS * 1000;
  let busy = await cpuBusy(1000);
  let waited = 1;
  while (busy > 0.15 && performance.now() < deadline) {
    if (waited === 1) log(`  ${label}: ${(busy * 100).toFixed(0)} % CPU busy; waiting for a quieter moment`);
    busy = await cpuBusy(1000);
    waited++;
  }
  const note = `${label}: ${(busy * 100).toFixed(0)} % CPU busy before the run (waited ${waited} s), load ${loadAverage()}`;
  log(note);
  if (busy > 0.15) log(`  warning: the machine is not quiet; ${label} figures will be low`);
  return note;
}

function build(): 'dist' | 'src' {
  if (!settings.build) return 'dist';
  log('building (npm run build)');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status === 0) return 'dist';
  log(
    'warning: the build failed; running src/server.ts through tsx instead (start-up figures will be slower)',
  );
  return 'src';
}

async function api(
  base: string,
  method: string,
  url: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await request(`${base}${url}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: response.text ? JSON.parse(response.text) : undefined };
}

async function expectStatus(
  promise: Promise<{ status: number; body: any }>,
  status: number,
  what: string,
): Promise<any> {
  const response = await promise;
  if (response.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

async function measureCeiling(): Promise<NonNullable<Results['ceiling']>> {
  log('ceiling: bare Fastify route with a body schema');
  const ceiling = await startCeiling();
  children.add(ceiling);
  try {
    const url = `${ceiling.url}/forms/form_ceiling/submit`;
    const common = {
      url,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: SUBMISSION,
      connections: settings.connections,
      uniqueBodies: true,
    };
    await drive({ ...common, durationS: settings.warmupS });
    const quiet = await quietness('ceiling');
    const cpuBefore = cpuSecondsOf(ceiling.pid);
    const load = await drive({ ...common, durationS: settings.durationS });
    const cpuPerRequestUs = ((cpuSecondsOf(ceiling.pid) - cpuBefore) / load.responses) * 1e6;
    if (load.non2xx > 0) throw new Error(`the ceiling answered ${JSON.stringify(load.statusCodes)}`);
    log(
      `  ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms; ` +
        `${cpuPerRequestUs.toFixed(0)} µs of CPU per request`,
    );
    return { load, quiet, cpuPerRequestUs };
  } finally {
    await ceiling.stop();
    children.delete(ceiling);
  }
}

async function runEngine(
  engine: 'sqlite' | 'postgres',
  entry: 'dist' | 'src',
  ceiling: LoadResult | undefined,
): Promise<EngineResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `intake-bench-${engine}-`));
  tempDirs.add(dataDir);
  const store: Store = { engine, dataDir };
  if (engine === 'postgres') {
    store.databaseUrl = settings.databaseUrl;
    store.databaseSchema = `bench_${randomBytes(6).toString('hex')}`;
    schemas.add(store.databaseSchema);
  }
  const result: EngineResult = { engine, notes: [] };
  const profileDir = settings.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'intake-profile-')) : undefined;

  const start = async (options: { readiness: 'log' | 'health'; cpuProfileDir?: string }) => {
    const started = await startService({
      store,
      entry,
      readiness: options.readiness,
      logLevel: options.readiness === 'log' ? 'info' : 'warn',
      cpuProfileDir: options.cpuProfileDir,
    });
    children.add(started.service);
    return started;
  };
  const stop = async (service: Child) => {
    const code = await service.stop();
    children.delete(service);
    if (code !== 0) result.notes.push(`the service exited with code ${code} on SIGTERM`);
    return code;
  };

  try {
    // 1. Start-up: a first start (creates the tables), then a restart; both to the "Intake is ready" line.
    if (!settings.profile) {
      log(`${engine}: start-up time and idle memory`);
      const quiet = await quietness(`${engine} start-up`);
      // the first start as after an install: Node's compile cache (dist/.compile-cache, written
      // by the entry) emptied, whatever an earlier run or engine left there; the restart reads it
      if (entry === 'dist')
        fs.rmSync(path.join(ROOT, 'dist', '.compile-cache'), { recursive: true, force: true });
      const first = await start({ readiness: 'log' });
      await sleep(1000);
      const firstRss = rssOf(first.service.pid);
      await stop(first.service);
      const again = await start({ readiness: 'log' });
      await sleep(1000);
      const againRss = rssOf(again.service.pid);
      await stop(again.service);
      result.startup = {
        firstReadyMs: first.readyMs,
        firstIdleRss: firstRss,
        restartReadyMs: again.readyMs,
        restartIdleRss: againRss,
        quiet,
      };
      log(
        `  ready in ${first.readyMs.toFixed(0)} ms (first start) / ${again.readyMs.toFixed(0)} ms (restart); ` +
          `idle RSS ${(firstRss / 2 ** 20).toFixed(1)} / ${(againRss / 2 ** 20).toFixed(1)} MiB`,
      );
    }

    // 2. The submit path under load.
    const submitting = settings.phases.includes('submit');
    if (submitting) log(`${engine}: submit path, ${settings.connections} connections`);
    const { service } = await start({ readiness: 'health', cpuProfileDir: phaseDir(profileDir, 'submit') });
    const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
    const signup = await expectStatus(
      api(service.url, 'POST', '/auth/signup', { email, password: PASSWORD }),
      201,
      'signup',
    );
    const token: string = signup.token;
    // the rows seeded below belong to the user's personal workspace (API.md §14)
    const workspaces = await expectStatus(
      api(service.url, 'GET', '/workspaces', undefined, token),
      200,
      'workspaces',
    );
    const workspaceId: string = workspaces.data[0].id;
    const submitForm = await expectStatus(
      api(service.url, 'POST', '/forms', FORM, token),
      201,
      'create form',
    );
    const inboxForm = await expectStatus(
      api(service.url, 'POST', '/forms', { ...FORM, title: 'Inbox at scale' }, token),
      201,
      'create form',
    );
    const common = {
      url: `${service.url}/forms/${submitForm.id}/submit`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: SUBMISSION,
      connections: settings.connections,
      uniqueBodies: true,
    };
    let submitted:
      | (Omit<NonNullable<EngineResult['submit']>, 'stored' | 'exitCode' | 'acked'> & {
          warmup: LoadResult;
        })
      | undefined;
    if (submitting) {
      const warmup = await drive({ ...common, durationS: settings.warmupS });
      if (warmup.ok2xx === 0)
        throw new Error(`the warm-up got no 2xx: ${JSON.stringify(warmup.statusCodes)}`);
      const quiet = await quietness(`${engine} submit`);
      const cpuBefore = cpuSecondsOf(service.pid);
      const postgresBefore = engine === 'postgres' ? postgresCpuSeconds() : 0;
      const load = await drive({ ...common, durationS: settings.durationS });
      submitted = {
        warmup,
        load,
        quiet,
        ratio: ceiling ? load.requestsPerSecond / ceiling.requestsPerSecond : undefined,
        cpuPerRequestUs: ((cpuSecondsOf(service.pid) - cpuBefore) / load.responses) * 1e6,
        postgresCpuPerRequestUs:
          engine === 'postgres'
            ? ((postgresCpuSeconds() - postgresBefore) / load.responses) * 1e6
            : undefined,
        rssAfterLoad: rssOf(service.pid),
      };
    }

    // 2a. The same submit to forms with response controls (API.md §15): a limit far away, and one
    // answer per e-mail address; same service, same body. Each is compared with a plain form run
    // just before and just after it, in rounds (the machine's load drifts, and the database grows
    // through the run): the share is the median round's. The plain runs go to a twin of the plain
    // form, so the plain form's own acknowledged → stored check is untouched.
    const controlled: Array<NonNullable<EngineResult['controls']>[number] & { formId: string }> = [];
    if (submitted && settings.phases.includes('controls')) {
      const twin = await expectStatus(
        api(service.url, 'POST', '/forms', { ...FORM, title: 'Plain twin' }, token),
        201,
        'create form',
      );
      const twinUrl = `${service.url}/forms/${twin.id}/submit`;
      const roundS = Math.max(1, Math.round(settings.durationS / 2));
      for (const [name, access] of [
        ['maxSubmissions', { maxSubmissions: 1_000_000_000 }],
        ['oncePer e-mail', { oncePer: 'email', emailField: 'email' }],
      ] as const) {
        log(`${engine}: submit to a form with ${name}, in ${CONTROL_ROUNDS} rounds between plain runs`);
        const form = await expectStatus(
          api(service.url, 'POST', '/forms', { ...FORM, title: `With ${name}`, access }, token),
          201,
          'create form',
        );
        const url = `${service.url}/forms/${form.id}/submit`;
        const warmup = await drive({ ...common, url, durationS: settings.warmupS });
        await drive({ ...common, url: twinUrl, durationS: settings.warmupS });
        const quiet = await quietness(`${engine} submit with ${name}`);
        // CPU a request, the service's and PostgreSQL's, summed over the rounds: where a gap is spent
        const cpu = { plain: new CpuTally(), control: new CpuTally() };
        const timed = (tally: CpuTally, target: string) =>
          tally.during(engine, service.pid, () => drive({ ...common, url: target, durationS: roundS }));
        let before = await timed(cpu.plain, twinUrl);
        const rounds: Array<{ plainBefore: number; control: LoadResult; plainAfter: number; share: number }> =
          [];
        for (let round = 0; round < CONTROL_ROUNDS; round++) {
          const control = await timed(cpu.control, url);
          const after = await timed(cpu.plain, twinUrl);
          const plainAround = (before.requestsPerSecond + after.requestsPerSecond) / 2;
          rounds.push({
            plainBefore: before.requestsPerSecond,
            control,
            plainAfter: after.requestsPerSecond,
            share: control.requestsPerSecond / plainAround,
          });
          before = after;
        }
        const median = [...rounds].sort((x, y) => x.share - y.share)[Math.floor(rounds.length / 2)];
        if (!median) throw new Error('no round measured');
        const acked = warmup.ok2xx + rounds.reduce((sum, round) => sum + round.control.ok2xx, 0);
        // stored rows are counted once the service has stopped (SQLite is its to write while it runs)
        controlled.push({
          name,
          formId: form.id,
          load: median.control,
          quiet,
          ofPlain: median.share,
          rounds: rounds.map(({ plainBefore, control, plainAfter, share }) => ({
            plainBefore,
            control: control.requestsPerSecond,
            plainAfter,
            share,
          })),
          acked,
          stored: 0,
          cpuPerRequestUs: { plain: cpu.plain.perRequestUs(), control: cpu.control.perRequestUs() },
        });
        log(
          `  rounds (plain, ${name}, plain → share): ${rounds
            .map(
              (round) =>
                `${round.plainBefore.toFixed(0)}, ${round.control.requestsPerSecond.toFixed(0)}, ${round.plainAfter.toFixed(0)} → ${(round.share * 100).toFixed(0)} %`,
            )
            .join(
              '; ',
            )}; median ${(median.share * 100).toFixed(0)} %, its p99 ${median.control.p99.toFixed(2)} ms; acknowledged ${acked}`,
        );
        log(
          `  CPU a request (service + PostgreSQL): plain ${cpuText(cpu.plain.perRequestUs())}, ${name} ${cpuText(cpu.control.perRequestUs())}`,
        );
      }
    }

    // 2a'. A one-by-one form's first page posted (API.md §15 saved progress): each post is a new
    // respondent's (its own session), so each saves a new partial; what a step costs with progress kept.
    let steps: { formId: string; load: LoadResult; quiet: string } | undefined;
    if (submitted && settings.phases.includes('controls')) {
      log(`${engine}: one-by-one step posts, each saved as a partial`);
      const form = await expectStatus(
        api(
          service.url,
          'POST',
          '/forms',
          { ...FORM, title: 'One by one', ui: { layout: 'one-by-one' } },
          token,
        ),
        201,
        'create form',
      );
      const step = {
        ...common,
        url: `${service.url}/f/${form.id}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '_question=name&_session=[<id>]&name=Ada+Lovelace&_action=next',
        uniqueBodies: true,
      };
      await drive({ ...step, durationS: settings.warmupS });
      const quiet = await quietness(`${engine} one-by-one steps`);
      const load = await drive({ ...step, durationS: settings.durationS });
      steps = { formId: form.id, load, quiet };
      log(
        `  ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms; statuses ${JSON.stringify(load.statusCodes)}`,
      );
    }

    // 2b. The hosted form page of the same form, as a respondent's browser fetches it.
    if (settings.phases.includes('page')) {
      log(`${engine}: hosted page GET /f/{id}, ${settings.connections} connections`);
      const pageUrl = `${service.url}/f/${submitForm.id}`;
      const html = await fetch(pageUrl).then((response) => response.text());
      // as a browser asks: gzip taken (the kept page is spliced into gzip, kept-pages.ts)
      const page = {
        url: pageUrl,
        method: 'GET' as const,
        connections: settings.connections,
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      };
      const pageWarmup = await drive({ ...page, durationS: settings.warmupS });
      const pageQuiet = await quietness(`${engine} page`);
      const pageCpuBefore = cpuSecondsOf(service.pid);
      const pageLoad = await drive({ ...page, durationS: settings.durationS });
      result.page = {
        load: pageLoad,
        quiet: pageQuiet,
        cpuPerRequestUs: ((cpuSecondsOf(service.pid) - pageCpuBefore) / pageLoad.responses) * 1e6,
        connections: settings.connections,
        htmlGzipBytes: gzipSync(html, { level: 9 }).length,
        // every page answered 200 made a session of its own: one view each, checked once the service
        // stopped; each of the two runs ends with up to one request a connection served, unanswered
        views: {
          answered: 1 + (pageWarmup.statusCodes['200'] ?? 0) + (pageLoad.statusCodes['200'] ?? 0),
          cutOff: 2 * settings.connections,
          stored: 0,
        },
      };
      log(
        `  ${pageLoad.requestsPerSecond.toFixed(0)} req/s, p50 ${pageLoad.p50.toFixed(2)} ms, p99 ${pageLoad.p99.toFixed(2)} ms; ` +
          `statuses ${JSON.stringify(pageLoad.statusCodes)}; ${result.page.cpuPerRequestUs.toFixed(0)} µs of service CPU per request`,
      );
    }

    const exitCode = await stop(service);
    if (result.page) result.page.views.stored = await countViews(store, submitForm.id);
    if (steps) {
      const { formId, ...run } = steps;
      result.steps = { ...run, partials: await countSubmissions(store, formId) };
    }
    if (controlled.length > 0) result.controls = [];
    for (const { formId, ...run } of controlled)
      result.controls?.push({ ...run, stored: await countSubmissions(store, formId) });
    if (submitted) {
      const { warmup, load, cpuPerRequestUs, postgresCpuPerRequestUs, ...rest } = submitted;
      const stored = await countSubmissions(store, submitForm.id);
      const acked = warmup.ok2xx + load.ok2xx;
      result.submit = { ...rest, load, cpuPerRequestUs, postgresCpuPerRequestUs, acked, stored, exitCode };
      log(
        `  ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms` +
          `${ceiling ? `, ${((load.requestsPerSecond / ceiling.requestsPerSecond) * 100).toFixed(0)} % of the ceiling` : ''}; ` +
          `statuses ${JSON.stringify(load.statusCodes)}; acknowledged ${acked}, stored ${stored}; ` +
          `${cpuPerRequestUs.toFixed(0)} µs of service CPU per request` +
          `${postgresCpuPerRequestUs === undefined ? '' : ` + ${postgresCpuPerRequestUs.toFixed(0)} µs of PostgreSQL's`}`,
      );
    }
    collectProfile(result, profileDir, 'submit');

    // 2c. File uploads, on a service of their own (its RSS not that of the submit load's heap).
    if (settings.phases.includes('files')) {
      result.files = await measureUploads(engine, token, start, stop, phaseDir(profileDir, 'files'));
      collectProfile(result, profileDir, 'files');
    }

    // 3. Webhook delivery: submit-to-delivery latency and how fast a backlog drains.
    if (settings.phases.includes('webhooks') && !settings.profile) {
      log(`${engine}: webhook deliveries to a local receiver`);
      const quiet = await quietness(`${engine} webhooks`);
      // the same storage: the session made above is still valid
      const { service: hooked } = await start({ readiness: 'health' });
      const form = await expectStatus(
        api(hooked.url, 'POST', '/forms', { ...FORM, title: 'With a webhook' }, token),
        201,
        'create form',
      );
      const figures = await measureWebhooks({
        register: async (url) => {
          await expectStatus(
            api(
              hooked.url,
              'POST',
              '/webhooks',
              { formId: form.id, event: 'response.created', url, secret: WEBHOOK_SECRET },
              token,
            ),
            201,
            'create webhook',
          );
        },
        submit: { ...common, url: `${hooked.url}/forms/${form.id}/submit` },
      });
      await stop(hooked);
      result.webhooks = { ...figures, quiet };
      log(
        `  submit → delivery at ${figures.latency.rate} submissions/s: p50 ${ms(figures.latency.p50)}, p99 ${ms(figures.latency.p99)} ` +
          `(${figures.latency.events} events, ${figures.latency.missing} missing); ` +
          `a backlog of ${figures.drain.backlog} drained at ${figures.drain.perSecond.toFixed(0)} deliveries/s (${figures.drain.missing} missing)`,
      );
    }
    if (!settings.phases.includes('inbox')) return result;

    // 3. The inbox of a form with a million submissions.
    log(`${engine}: loading ${settings.rows.toLocaleString('en')} submissions through the driver`);
    const seeded = await seedSubmissions(
      store,
      { id: inboxForm.id, workspaceId, environment: 'development', version: inboxForm.version },
      settings.rows,
    );
    log(`  ${seeded.rows} rows in ${seeded.seconds.toFixed(1)} s`);
    const big = await start({ readiness: 'health', cpuProfileDir: phaseDir(profileDir, 'inbox') });
    await sleep(1000);
    const bigRss = rssOf(big.service.pid);
    const headers = { authorization: `Bearer ${token}` };
    const listUrl = `${big.service.url}/responses?form_id=${inboxForm.id}&environment=development&limit=50`;
    const first = await request(listUrl, { headers });
    const firstPage = JSON.parse(first.text);
    if (first.status !== 200 || firstPage.data?.length !== 50) {
      throw new Error(`listing answered ${first.status}: ${first.text.slice(0, 300)}`);
    }
    const quietList = await quietness(`${engine} list`);
    const seq = await sequential(listUrl, headers, settings.listRequests);
    log(`  newest 50, sequential: p50 ${seq.p50.toFixed(2)} ms, p99 ${seq.p99.toFixed(2)} ms`);
    // the forms list's counts (issue 24 item 4): one row per form, whatever the submissions
    const summaryUrl = `${big.service.url}/responses/summary?environment=development`;
    const summarySeq = await sequential(summaryUrl, headers, settings.listRequests);
    log(
      `  forms list counts, sequential: p50 ${summarySeq.p50.toFixed(2)} ms, p99 ${summarySeq.p99.toFixed(2)} ms`,
    );
    await drive({ url: listUrl, headers, connections: settings.listConnections, durationS: 1 });
    const listLoad = await drive({
      url: listUrl,
      headers,
      connections: settings.listConnections,
      durationS: settings.listDurationS,
    });
    log(
      `  newest 50, ${settings.listConnections} connections: ${listLoad.requestsPerSecond.toFixed(0)} req/s, ` +
        `p50 ${listLoad.p50.toFixed(2)} ms, p99 ${listLoad.p99.toFixed(2)} ms`,
    );
    const missing = chromiumMissing();
    let browserFigures: InboxBrowserFigures | { skipped: string };
    if (missing) browserFigures = { skipped: missing };
    else {
      await quietness(`${engine} inbox in Chromium`);
      browserFigures = await measureInboxInBrowser({
        url: big.service.url,
        email,
        password: PASSWORD,
        formId: inboxForm.id,
        formTitle: inboxForm.title,
      });
      log(
        `  in Chromium: first rows p50 ${ms(browserFigures.firstRows.p50)} (cold ${ms(browserFigures.coldMs)}), ` +
          `forms list counts p50 ${ms(browserFigures.formsCounts.p50)}, star click → paint p50 ${browserFigures.starClick.p50.toFixed(1)} ms`,
      );
    }
    result.inbox = {
      browser: browserFigures,
      seedRows: seeded.rows,
      seedSeconds: seeded.seconds,
      readyMs: big.readyMs,
      idleRss: bigRss,
      sequential: seq,
      summary: summarySeq,
      load: listLoad,
      quiet: quietList,
    };

    // CSV export, when the route exists.
    const csvUrl = `${big.service.url}/responses?form_id=${inboxForm.id}&environment=development&format=csv`;
    const answer = await probe(csvUrl, headers);
    if (answer.status !== 200 || !answer.contentType.startsWith('text/csv')) {
      result.inbox.csv = {
        skipped: `GET /responses?format=csv answered ${answer.status} ${answer.contentType || '(no content type)'}, not text/csv: the CSV export is not built yet`,
      };
      log(`  CSV export skipped: ${result.inbox.csv.skipped}`);
    } else {
      const expected = settings.rows - (await countStatus(inboxForm.id, big.service, headers, 'quarantined'));
      await quietness(`${engine} csv`);
      const sampler = sampleRss(big.service.pid, 50);
      const started = performance.now();
      const csv = await streamCsv(csvUrl, headers, settings.csvLimitS * 1000);
      const seconds = (performance.now() - started) / 1000;
      const { baseline, peak } = sampler();
      const rows = Math.max(0, csv.records - 1);
      result.inbox.csv = {
        status: csv.status,
        rows,
        expectedRows: expected,
        bytes: csv.bytes,
        seconds,
        rowsPerSecond: rows / seconds,
        firstByteMs: csv.firstByteMs,
        rssBaseline: baseline,
        rssPeak: peak,
        cut: csv.cut,
      };
      log(
        `  CSV: ${rows} rows (expected ${expected}${csv.cut ? `; cut off after ${settings.csvLimitS} s` : ''}) ` +
          `in ${seconds.toFixed(1)} s = ${(rows / seconds).toFixed(0)} rows/s; ` +
          `RSS ${(baseline / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB`,
      );
    }
    // XLSX export of the same rows: the workbook streamed and its sheet inflated as it comes to count the rows.
    const xlsxUrl = `${big.service.url}/responses?form_id=${inboxForm.id}&environment=development&format=xlsx`;
    const xlsxAnswer = await probe(xlsxUrl, headers);
    if (xlsxAnswer.status !== 200 || !xlsxAnswer.contentType.startsWith(XLSX_TYPE)) {
      result.inbox.xlsx = {
        skipped: `GET /responses?format=xlsx answered ${xlsxAnswer.status} ${xlsxAnswer.contentType || '(no content type)'}: the XLSX export is not built yet`,
      };
      log(`  XLSX export skipped: ${result.inbox.xlsx.skipped}`);
    } else {
      const expected = settings.rows - (await countStatus(inboxForm.id, big.service, headers, 'quarantined'));
      await quietness(`${engine} xlsx`);
      const sampler = sampleRss(big.service.pid, 50);
      const started = performance.now();
      const xlsx = await streamXlsx(xlsxUrl, headers, settings.csvLimitS * 1000);
      const seconds = (performance.now() - started) / 1000;
      const { baseline, peak } = sampler();
      const rows = Math.max(0, xlsx.records - 1);
      result.inbox.xlsx = {
        status: xlsx.status,
        rows,
        expectedRows: expected,
        bytes: xlsx.bytes,
        seconds,
        rowsPerSecond: rows / seconds,
        firstByteMs: xlsx.firstByteMs,
        rssBaseline: baseline,
        rssPeak: peak,
        cut: xlsx.cut,
      };
      log(
        `  XLSX: ${rows} rows (expected ${expected}${xlsx.cut ? `; cut off after ${settings.csvLimitS} s` : ''}) ` +
          `in ${seconds.toFixed(1)} s = ${(rows / seconds).toFixed(0)} rows/s; ` +
          `RSS ${(baseline / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB`,
      );
    }
    await stop(big.service);
    collectProfile(result, profileDir, 'inbox');
    return result;
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    log(`${engine}: failed: ${result.error}`);
    // what the service said last: a failure on the service's side is there, not in the client's error
    for (const child of children)
      if (child.output.length > 0) log(`  the service's last lines:\n${child.output.join('\n')}`);
    return result;
  } finally {
    for (const child of [...children]) {
      await child.stop();
      children.delete(child);
    }
    if (store.databaseSchema) {
      await dropSchema(settings.databaseUrl, store.databaseSchema).catch(() => {});
      schemas.delete(store.databaseSchema);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    tempDirs.delete(dataDir);
  }
}

/**
 * File uploads (API.md §12) on a fresh service: files of 100 MB streamed from a generator, three
 * one after the other (MB/s of the median one; the service's RSS growth over the three, sampled
 * every 50 ms; the stored bytes downloaded again and their sha256 compared with the one computed
 * while sending), then uploads of 1 MB from 50 connections (autocannon, one prebuilt multipart body).
 */
async function measureUploads(
  engine: 'sqlite' | 'postgres',
  token: string,
  start: (options: { readiness: 'log' | 'health'; cpuProfileDir?: string }) => Promise<StartedService>,
  stop: (service: Child) => Promise<number | null>,
  cpuProfileDir: string | undefined,
): Promise<NonNullable<EngineResult['files']>> {
  const { bigUploadBytes, smallUploadBytes, uploadConnections } = settings;
  log(
    `${engine}: file uploads, ${settings.bigUploads} of ${bigUploadBytes / MB} MB streamed, then ${smallUploadBytes / MB} MB ones from ${uploadConnections} connections`,
  );
  const { service } = await start({ readiness: 'health', cpuProfileDir });
  const form = await expectStatus(api(service.url, 'POST', '/forms', FILE_FORM, token), 201, 'create form');
  const idleRss = rssOf(service.pid);
  const uploadUrl = `${service.url}/forms/${form.id}/uploads`;
  const small = uploadBody('document', smallUploadBytes);
  const smallLoad = {
    url: uploadUrl,
    method: 'POST' as const,
    headers: { 'content-type': small.contentType },
    body: small.body,
    connections: uploadConnections,
  };
  // the route, the multipart parser and the store's paths warmed up: small uploads on one connection
  const warm = await drive({ ...smallLoad, connections: 1, durationS: 1 });
  if (warm.ok2xx === 0)
    throw new Error(`the uploads' warm-up got no 2xx: ${JSON.stringify(warm.statusCodes)}`);
  await sleep(500);

  // (a) Large files, streamed one after the other; then each attached to a submission and
  // downloaded by the owner, its sha256 compared with the one computed while sending.
  const bigQuiet = await quietness(`${engine} uploads of ${bigUploadBytes / MB} MB`);
  const runs: Awaited<ReturnType<typeof streamUpload>>[] = [];
  for (let i = 0; i < settings.bigUploads; i++) {
    const big = await streamUpload(uploadUrl, 'document', bigUploadBytes, service.pid);
    if (big.status !== 201) {
      throw new Error(
        `the upload of ${bigUploadBytes / MB} MB answered ${big.status}: ${JSON.stringify(big.body)}`,
      );
    }
    runs.push(big);
    log(
      `  ${bigUploadBytes / MB} MB in ${big.seconds.toFixed(2)} s = ${(big.bytes / MB / big.seconds).toFixed(0)} MB/s ` +
        `(the body sent after ${big.sentSeconds.toFixed(2)} s); ` +
        `service RSS ${(big.rssBaseline / 2 ** 20).toFixed(1)} → peak ${(big.rssPeak / 2 ** 20).toFixed(1)} MiB; ` +
        `service CPU ${big.serviceCpuSeconds.toFixed(2)} s`,
    );
  }
  let intact = true;
  for (const big of runs) {
    const submission = await expectStatus(
      api(service.url, 'POST', `/forms/${form.id}/submit`, { answers: { document: [big.body.uploadId] } }),
      201,
      'submit the upload',
    );
    const read = await expectStatus(
      api(
        service.url,
        'GET',
        `/responses/${submission.id}?form_id=${form.id}&environment=development`,
        undefined,
        token,
      ),
      200,
      'read the submission',
    );
    const fileId: string = read.answers.document[0].id;
    const download = await downloadSha256(`${service.url}/responses/${submission.id}/files/${fileId}`, {
      authorization: `Bearer ${token}`,
    });
    const same =
      download.status === 200 &&
      download.bytes === big.bytes &&
      download.sha256 === big.sha256 &&
      big.body.sha256 === big.sha256;
    if (!same) {
      log(
        `  downloaded: ${download.status}, ${download.bytes} bytes, sha256 DIFFERENT (sent ${big.sha256}, answered ${big.body.sha256}, stored ${download.sha256})`,
      );
    }
    intact &&= same;
  }
  const byRate = [...runs].sort((a, b) => b.seconds - a.seconds);
  const median = byRate[Math.floor(byRate.length / 2)] as (typeof runs)[number];
  const rssBaseline = (runs[0] as (typeof runs)[number]).rssBaseline;
  const rssPeak = Math.max(...runs.map((run) => run.rssPeak));
  log(
    `  median ${(median.bytes / MB / median.seconds).toFixed(0)} MB/s; RSS growth over the ${runs.length} uploads ` +
      `${((rssPeak - rssBaseline) / 2 ** 20).toFixed(1)} MiB; downloads ${intact ? 'byte for byte as sent (sha256)' : 'DIFFERENT from what was sent'}`,
  );

  // (b) Many small files at once.
  await drive({ ...smallLoad, durationS: settings.warmupS });
  const smallQuiet = await quietness(`${engine} uploads of ${smallUploadBytes / MB} MB`);
  const cpuBefore = cpuSecondsOf(service.pid);
  const load = await drive({ ...smallLoad, durationS: settings.uploadDurationS });
  const cpuPerUploadUs = ((cpuSecondsOf(service.pid) - cpuBefore) / load.responses) * 1e6;
  log(
    `  ${uploadConnections} × ${smallUploadBytes / MB} MB: ${load.requestsPerSecond.toFixed(0)} req/s ` +
      `(${((load.requestsPerSecond * smallUploadBytes) / MB).toFixed(0)} MB/s), p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms; ` +
      `statuses ${JSON.stringify(load.statusCodes)}, ${load.errors} errors, ${load.timeouts} timeouts; ` +
      `${cpuPerUploadUs.toFixed(0)} µs of service CPU per upload`,
  );
  const exitCode = await stop(service);
  return {
    big: {
      bytes: bigUploadBytes,
      runs: runs.map((run) => ({
        seconds: run.seconds,
        sentSeconds: run.sentSeconds,
        mbPerSecond: run.bytes / MB / run.seconds,
        serviceCpuSeconds: run.serviceCpuSeconds,
      })),
      mbPerSecond: median.bytes / MB / median.seconds,
      idleRss,
      rssBaseline,
      rssPeak,
      type: String(median.body.type),
      intact,
      quiet: bigQuiet,
    },
    small: {
      load,
      bytes: smallUploadBytes,
      connections: uploadConnections,
      cpuPerUploadUs,
      quiet: smallQuiet,
    },
    exitCode,
  };
}

function phaseDir(profileDir: string | undefined, phase: string): string | undefined {
  if (!profileDir) return undefined;
  const dir = path.join(profileDir, phase);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The summary of the CPU profile the service wrote on exit for `phase`. */
function collectProfile(result: EngineResult, profileDir: string | undefined, phase: string): void {
  const dir = phaseDir(profileDir, phase);
  if (!dir) return;
  const file = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(dir, name))[0];
  if (!file) return;
  result.profiles ??= [];
  result.profiles.push({ phase, file, summary: summarizeProfile(file) });
  log(`  CPU profile of the ${phase} phase: ${file}`);
}

/** Rows the default export leaves out (quarantined), counted through the API's status filter. */
async function countStatus(
  formId: string,
  service: Child,
  headers: Record<string, string>,
  status: string,
): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const url = `${service.url}/responses?form_id=${formId}&environment=development&limit=100&status=${status}${
      cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
    }`;
    const page = JSON.parse((await request(url, { headers })).text);
    count += page.data.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return count;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const info = machine();
  log(
    `Intake benchmark on ${info.cpus} × ${info.cpu}, ${info.ramGiB.toFixed(1)} GiB, Node ${info.node}; load ${loadAverage()}`,
  );
  const entry = build();
  const results: Results = { date: startedAt.toISOString(), machine: info, settings, entry, engines: [] };
  const ceiling = settings.phases.includes('submit') ? await measureCeiling() : undefined;
  results.ceiling = ceiling;
  for (const engine of settings.engines) {
    if (engine === 'postgres' && !(await postgresAvailable(settings.databaseUrl))) {
      results.engines.push({
        engine,
        notes: [],
        error: `PostgreSQL does not answer at ${settings.databaseUrl}`,
      });
      log(`postgres: skipped, nothing answers at ${settings.databaseUrl}`);
      continue;
    }
    results.engines.push(await runEngine(engine, entry, ceiling?.load));
  }
  results.finishedAt = new Date().toISOString();

  process.stdout.write(`\n${renderTable(results)}\n`);
  if (settings.profile) {
    for (const engine of results.engines) {
      for (const profile of engine.profiles ?? []) {
        process.stdout.write(
          `\n## ${engine.engine}, ${profile.phase} phase: CPU profile\n\n${profile.summary}\n`,
        );
      }
    }
    log('profile run: bench/RESULTS.md left as it was (the profiler slows the service down)');
  } else if (
    !complete(settings.phases) ||
    !ENGINES.every((name) => results.engines.some((run) => run.engine === name && run.error === undefined))
  ) {
    log('partial run (a part or an engine left out, or failed): bench/RESULTS.md left as it was');
  } else {
    const file = path.join(ROOT, 'bench/RESULTS.md');
    const previous = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    fs.writeFileSync(file, renderMarkdown(results, previous));
    log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}

main()
  .catch(async (error: unknown) => {
    log(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanUp();
    process.exit();
  });
