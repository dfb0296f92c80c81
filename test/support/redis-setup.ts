import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './mail.js';
import {
  DEFAULT_REDIS_URL,
  findProgram,
  REDIS_TESTS_SKIP,
  requireAll,
  requiredButMissing,
} from './services.js';

/**
 * Vitest global setup of the api project: the Redis the rate-limit tests run against. In order:
 * the one TEST_REDIS_URL names (taken as given: a wrong one fails the tests that use it); one
 * answering at 127.0.0.1:6379; one started here from `redis-server` on a free loopback port, with
 * nothing written to disk, and stopped after the run. Without any of them the Redis tests are
 * skipped, and said so at the end of the run (or, under INTAKE_TEST_REQUIRE_ALL, the run fails).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const configured = process.env.TEST_REDIS_URL;
  if (configured) {
    project.provide('testRedisUrl', configured);
    return undefined;
  }
  const redis = await findOrStartRedis();
  if (!redis) {
    if (requireAll()) throw requiredButMissing(REDIS_TESTS_SKIP);
    project.provide('testRedisUrl', null);
    project.provide('skippedTests', [REDIS_TESTS_SKIP]);
    return undefined;
  }
  if (redis.started)
    console.log(`Redis for the tests: ${redis.started} on ${redis.url} (stopped after the run)`);
  project.provide('testRedisUrl', redis.url);
  return redis.stop;
}

export interface TestRedis {
  url: string;
  /** The program started for the run, or undefined when a Redis was already there. */
  started?: string;
  /** Stops what was started (nothing otherwise). */
  stop(): Promise<void>;
}

/**
 * A Redis answering at `defaultUrl`, or one started from the `redis-server` on `searchPath`;
 * undefined when there is neither.
 */
export async function findOrStartRedis({
  defaultUrl = DEFAULT_REDIS_URL,
  searchPath = process.env.PATH ?? '',
} = {}): Promise<TestRedis | undefined> {
  if (await answersPing(defaultUrl)) return { url: defaultUrl, stop: async () => undefined };
  const program = findProgram('redis-server', searchPath);
  if (!program) return undefined;
  return { ...(await startRedis(program)), started: program };
}

/** Whether a Redis server answers PING at this URL within a second (a plain socket: no client's retries). */
export function answersPing(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString('latin1').startsWith('+PONG')));
  });
}

async function startRedis(program: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  // Its working directory is a temporary one, and it saves nothing there: the counters the
  // tests make live for a minute and matter to no one afterwards.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-redis-'));
  const child = spawn(
    program,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Should the test run end without its teardown (an interrupted run), the server goes with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (!hasExited(child)) {
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 10_000;
  while (!(await answersPing(url, 200))) {
    if (hasExited(child) || Date.now() > deadline) {
      await stop();
      throw new Error(`${program} is installed but did not start on port ${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, stop };
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
