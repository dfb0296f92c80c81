import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config.js';
import { isolatedStorage } from './app.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Builds what `npm start` runs (scripts/build.mjs): the entry `entry`, a path inside the project
 * (where node_modules is found), and beside it the bundle (intake.js) and the pages' build (web/),
 * for tests that drive the service as users run it.
 */
export function buildBundle(entry: string): void {
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], {
    cwd: root,
    env: { ...process.env, INTAKE_BUILD_OUT: entry },
    stdio: 'pipe',
  });
}

/** Intake as a real process (`src/server.ts` through tsx), for restart and crash tests. */
export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** `entry`: a built JavaScript file to run with plain node instead of the sources through tsx. */
export function runService(
  env: Record<string, string | undefined>,
  entry?: string,
): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | string>;
} {
  // the bundle's stack traces name src/ lines (dist/intake.js.map): worth its memory in tests
  const args = entry
    ? ['--enable-source-maps', entry]
    : ['--import', 'tsx', path.join(root, 'src/server.ts')];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return { child, output: () => output, exited };
}

/**
 * A service on storage of its own that a test kills and starts again (crash tests): `start`
 * starts one on the same storage; `cleanup` kills whichever is still running and drops the storage.
 */
export interface CrashRig {
  storage: Partial<Config>;
  start(): Promise<ServiceProcess>;
  cleanup(): Promise<void>;
}

export async function crashRig(env: Record<string, string>): Promise<CrashRig> {
  const { storage, drop } = await isolatedStorage();
  const full = {
    DATA_DIR: storage.dataDir,
    DATABASE_URL: storage.databaseUrl,
    DATABASE_SCHEMA: storage.databaseSchema,
    ...env,
  };
  const started: ServiceProcess[] = [];
  return {
    storage,
    start: async () => {
      const service = await startService(full);
      started.push(service);
      return service;
    },
    cleanup: async () => {
      for (const service of started) {
        if (service.child.exitCode !== null || service.child.signalCode !== null) continue;
        service.child.kill('SIGKILL');
        await service.exited;
      }
      await drop();
    },
  };
}

export async function startService(
  env: Record<string, string | undefined>,
  timeoutMs = 20_000,
  entry?: string,
): Promise<ServiceProcess> {
  const run = runService(env, entry);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${run.output()}`)), timeoutMs);
    const check = () => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(run.output());
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    run.child.stdout?.on('data', check);
    run.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited (${code}) before it was ready:\n${run.output()}`));
    });
  });
  return {
    ...run,
    url,
    stop: async (signal = 'SIGTERM') => {
      run.child.kill(signal);
      return run.exited;
    },
  };
}

/** A JSON request to a running service (a token as `Authorization: Bearer`); the status and parsed body. */
export async function fetchJson(
  url: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/**
 * Signs `email` up on a running service and creates a live form in production (`form`: its
 * title, fields and any other member); the owner's session token and the form's id.
 */
export async function ownerWithLiveForm(
  url: string,
  email: string,
  form: Record<string, unknown>,
): Promise<{ token: string; formId: string }> {
  const signup = await fetchJson(`${url}/auth/signup`, {
    method: 'POST',
    body: { email, password: 'long enough password' },
  });
  if (signup.status !== 201)
    throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  const token = signup.body.token as string;
  const created = await fetchJson(`${url}/forms`, {
    method: 'POST',
    token,
    body: { environment: 'production', status: 'live', ...form },
  });
  if (created.status !== 201)
    throw new Error(`form not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { token, formId: created.body.id as string };
}

/** Outbox ids of messages (of `kind`, when given) a service has logged a failed attempt for. */
export function failedSends(output: string, kind?: string): Set<string> {
  return new Set(
    output
      .split('\n')
      .filter((line) => line.includes('outbox message failed'))
      .map((line) => JSON.parse(line) as { outboxId: string; kind: string })
      .filter((entry) => kind === undefined || entry.kind === kind)
      .map((entry) => entry.outboxId),
  );
}

/** Waits (up to 20 s) until `count` messages have failed once; resolves with how many did. */
export async function waitForFailedSends(
  service: ServiceProcess,
  count: number,
  kind?: string,
): Promise<number> {
  for (let i = 0; i < 400 && failedSends(service.output(), kind).size < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return failedSends(service.output(), kind).size;
}

/** Submits `{name: "Submitter i"}` `count` times to a running service, `concurrency` at a time; the ids of the 201s. */
export async function submitNames(
  service: ServiceProcess,
  formId: string,
  count: number,
  concurrency: number,
): Promise<Array<{ status: number; id: string }>> {
  const answers: Array<{ status: number; id: string }> = [];
  for (let start = 0; start < count; start += concurrency) {
    const results = await Promise.all(
      Array.from({ length: Math.min(concurrency, count - start) }, (_, i) =>
        fetchJson(`${service.url}/forms/${formId}/submit`, {
          method: 'POST',
          body: { answers: { name: `Submitter ${start + i}` } },
        }),
      ),
    );
    for (const result of results) answers.push({ status: result.status, id: result.body?.id });
  }
  return answers;
}

/** A process's resident memory in MiB, from /proc (Linux only: where CI runs). */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
