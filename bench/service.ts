import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Starting, watching and stopping Intake (and the ceiling server) as child processes. */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Store {
  engine: 'sqlite' | 'postgres';
  dataDir: string;
  databaseUrl?: string;
  databaseSchema?: string;
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  url: string;
  /** The last lines the process wrote (stdout and stderr), for error messages. */
  output: string[];
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/**
 * The Node flags `npm start` gives the service (package.json's start script: the young
 * generation's cap), so that the benchmark measures the service as it is run.
 */
export const NODE_FLAGS: readonly string[] = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string
)
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));

/** One master key for every run, so PostgreSQL runs do not warn about a generated one. */
const MASTER_KEY = randomBytes(32).toString('hex');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // the service must run as production runs it: no loader hooks, no inherited database settings
  for (const name of ['NODE_OPTIONS', 'DATABASE_URL', 'DATABASE_SCHEMA', 'REDIS_URL', 'SMTP_URL', 'PORT']) {
    delete env[name];
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function watch(proc: ChildProcess, url: string, onLine?: (line: string) => void): Child {
  const output: string[] = [];
  const collect = (stream: NodeJS.ReadableStream | null) => {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        // the last lines, for an error's message; BENCH_OUTPUT_LINES keeps more (a --trace-gc read whole)
        if (output.length > (Number(process.env.BENCH_OUTPUT_LINES) || 40)) output.shift();
        onLine?.(line);
      }
    });
  };
  collect(proc.stdout);
  collect(proc.stderr);
  const exited = new Promise<number | null>((resolve) => {
    if (proc.exitCode !== null) resolve(proc.exitCode);
    else proc.once('exit', (code) => resolve(code));
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return { proc, pid: proc.pid ?? 0, url, output, exited, stop };
}

export type Readiness = 'log' | 'health';

export interface StartedService {
  service: Child;
  /** Milliseconds from spawn to the "Intake is ready" line (or to the first 200 of /health). */
  readyMs: number;
}

export interface ServiceOptions {
  store: Store;
  /** `log`: wait for the "Intake is ready" line (needs LOG_LEVEL info); `health`: poll GET /health. */
  readiness: Readiness;
  logLevel: string;
  /** Write a V8 CPU profile into this folder when the service exits. */
  cpuProfileDir?: string;
  entry: 'dist' | 'src';
}

/** Starts Intake as production runs it (`node dist/server.js`) and waits until it is ready. */
export async function startService(options: ServiceOptions): Promise<StartedService> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args: string[] = [...NODE_FLAGS];
  if (options.cpuProfileDir) args.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`);
  if (options.entry === 'dist') args.push(path.join(ROOT, 'dist/server.js'));
  else args.push('--import', 'tsx', path.join(ROOT, 'src/server.ts'));
  const env = childEnv({
    HOST: '127.0.0.1',
    PORT: String(port),
    NODE_ENV: 'production',
    LOG_LEVEL: options.logLevel,
    DATA_DIR: options.store.dataDir,
    DATABASE_URL: options.store.databaseUrl,
    DATABASE_SCHEMA: options.store.databaseSchema,
    MASTER_KEY,
    RATE_LIMIT_PUBLIC: '10000000',
    RATE_LIMIT_AUTHENTICATED: '10000000',
    RATE_LIMIT_AUTH: '1000',
    MONTHLY_QUOTA: '0',
    // the webhook receiver of the benchmark listens on loopback
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });

  let sawReadyLine: (() => void) | undefined;
  const readyLine = new Promise<void>((resolve) => {
    sawReadyLine = resolve;
  });
  const spawnedAt = performance.now();
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const service = watch(proc, url, (line) => {
    if (line.includes('"msg":"Intake is ready"')) sawReadyLine?.();
  });

  const died = service.exited.then((code) => {
    throw new Error(`Intake exited (code ${code}) before it was ready:\n${service.output.join('\n')}`);
  });
  const ready =
    options.readiness === 'log'
      ? readyLine
      : (async () => {
          for (;;) {
            try {
              const response = await fetch(`${url}/health`);
              if (response.status === 200) return;
            } catch {
              // not listening yet
            }
            if (proc.exitCode !== null) return;
            await sleep(5);
          }
        })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Intake was not ready within 30 s:\n${service.output.join('\n')}`)),
      30_000,
    );
  });
  try {
    await Promise.race([ready, died, timeout]);
  } catch (error) {
    await service.stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const readyMs = performance.now() - spawnedAt;
  died.catch(() => {});
  return { service, readyMs };
}

/** The ceiling server (bench/ceiling-server.ts), started like the service. */
export async function startCeiling(): Promise<Child> {
  const port = await freePort();
  let ready: (() => void) | undefined;
  const readyLine = new Promise<void>((resolve) => {
    ready = resolve;
  });
  // the service's own flags: the ceiling runs under the same young generation
  const args = [...NODE_FLAGS, '--import', 'tsx', path.join(ROOT, 'bench/ceiling-server.ts')];
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: childEnv({ PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const child = watch(proc, `http://127.0.0.1:${port}`, (line) => {
    if (line.startsWith('ceiling ready')) ready?.();
  });
  const died = child.exited.then((code) => {
    throw new Error(`the ceiling server exited (code ${code}):\n${child.output.join('\n')}`);
  });
  await Promise.race([readyLine, died]);
  died.catch(() => {});
  return child;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resident set size of a process in bytes (VmRSS of /proc/<pid>/status). */
export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/** Samples a process's RSS every `intervalMs` until stopped; reports the first and the peak sample. */
export function sampleRss(pid: number, intervalMs = 50): () => { baseline: number; peak: number } {
  const baseline = rssOf(pid);
  let peak = baseline;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process is gone
    }
  }, intervalMs);
  return () => {
    clearInterval(timer);
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process is gone
    }
    return { baseline, peak };
  };
}

/** Share of the machine's CPU time that was busy over `ms` (while the benchmark itself idles). */
export async function cpuBusy(ms = 1000): Promise<number> {
  const read = () => {
    const fields = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { idle, total };
  };
  const first = read();
  await sleep(ms);
  const second = read();
  const total = second.total - first.total;
  return total > 0 ? 1 - (second.idle - first.idle) / total : 0;
}

export const loadAverage = (): string =>
  fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU time (user + system, seconds) a process has used so far, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name may hold spaces: the fields that follow start after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** CPU time used so far by every PostgreSQL server process on the machine (all databases). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** CPU a request (the service's, and PostgreSQL's on that engine), summed over several runs. */
export class CpuTally {
  private serviceS = 0;
  private postgresS = 0;
  private responses = 0;

  async during<T extends { responses: number }>(
    engine: string,
    pid: number,
    run: () => Promise<T>,
  ): Promise<T> {
    const serviceBefore = cpuSecondsOf(pid);
    const postgresBefore = engine === 'postgres' ? postgresCpuSeconds() : 0;
    const result = await run();
    this.serviceS += cpuSecondsOf(pid) - serviceBefore;
    if (engine === 'postgres') this.postgresS += postgresCpuSeconds() - postgresBefore;
    this.responses += result.responses;
    return result;
  }

  perRequestUs(): { service: number; postgres: number | undefined } {
    const per = (seconds: number) => (this.responses === 0 ? Number.NaN : (seconds / this.responses) * 1e6);
    return { service: per(this.serviceS), postgres: this.postgresS > 0 ? per(this.postgresS) : undefined };
  }
}
