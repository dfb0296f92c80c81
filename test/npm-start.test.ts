import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './support/poll.js';
import { buildBundle } from './support/process.js';

/**
 * Issue 19 item 6: `npm start` as a supervisor or `docker stop` runs it. npm 11 runs a script
 * under `sh -c`, and sh passes no signal on to the program it started: a SIGTERM sent to npm alone
 * left the server running, orphaned, holding its port and its database; one sent to the whole
 * group made npm exit 143 though the server exited 0. The script `exec`s the server in sh's place,
 * so the signals npm passes on reach it. These run `npm start` as package.json spells it, in a
 * folder of its own with the bundle built afresh, and signal it both ways.
 */
const root = path.resolve(import.meta.dirname, '..');
const projectPackage = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  type: string;
  scripts: { start: string };
};

interface NpmStart {
  npm: ChildProcess;
  /** The server's process id and address, from its "Intake is ready" line. */
  serverPid: number;
  url: string;
  output: () => string;
  exited: Promise<number | string>;
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start', () => {
  // Inside the project, where the bundle finds node_modules (like the build test's).
  const folder = path.join(root, 'node_modules', '.cache', `intake-npm-start-${process.pid}`);
  const dataDirs: string[] = [];
  const servers: number[] = [];

  beforeAll(() => {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(
      path.join(folder, 'package.json'),
      JSON.stringify({
        name: 'intake-npm-start',
        private: true,
        type: projectPackage.type,
        scripts: { start: projectPackage.scripts.start },
      }),
    );
    buildBundle(path.join(folder, 'dist', 'server.js'));
  }, 120_000);
  afterEach(() => {
    // a server the signal did not reach must not outlive the test (the failure this guards against)
    for (const pid of servers.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  });
  afterAll(() => {
    fs.rmSync(folder, { recursive: true, force: true });
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function npmStart(options: { logLevel?: string } = {}): Promise<NpmStart> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-npm-start-'));
    dataDirs.push(dataDir);
    // A process group of its own: the test may signal the group as a terminal's Ctrl-C does.
    const npm = spawn('npm', ['start'], {
      cwd: folder,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        ...(options.logLevel ? { LOG_LEVEL: options.logLevel } : {}),
      },
    });
    let output = '';
    npm.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    npm.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | string>((resolve) => {
      npm.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    });
    const readyLine = () => output.split('\n').find((line) => line.includes('Intake is ready'));
    await waitFor(() => readyLine() !== undefined || npm.exitCode !== null, {
      timeoutMs: 20_000,
      what: 'Intake to be ready',
    });
    const ready = readyLine();
    if (!ready) throw new Error(`npm start exited (${npm.exitCode}) before Intake was ready:\n${output}`);
    const { pid, url } = JSON.parse(ready) as { pid: number; url: string };
    servers.push(pid);
    return { npm, serverPid: pid, url, output: () => output, exited };
  }

  async function expectGone(started: NpmStart): Promise<void> {
    expect(isRunning(started.serverPid), `server ${started.serverPid} still running`).toBe(false);
    await expect(fetch(`${started.url}/health`)).rejects.toThrow();
  }

  it('SIGTERM to the npm process alone: the server finishes the request in flight, stops, and npm exits 0', async () => {
    const started = await npmStart();
    expect((await fetch(`${started.url}/health`)).status).toBe(200);
    // the flags the service is tuned for: its young generation's cap, and `gc` for the pacing of
    // uploaded bytes (platform/external-memory.ts)
    const flags = fs.readFileSync(`/proc/${started.serverPid}/cmdline`, 'utf8').split('\0');
    expect(flags).toEqual(expect.arrayContaining(['--max-semi-space-size=16', '--expose-gc']));

    // A sign-up whose body is half sent when the signal comes: it must still be answered. Each
    // step waits for the server's own log line: it has the request, then it is shutting down.
    const body = JSON.stringify({ email: 'in-flight@example.com', password: 'correct horse battery' });
    const request = http.request(`${started.url}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    // the status, or what went wrong instead (resolved, not thrown: nothing is left unhandled)
    const answered = new Promise<number | string>((resolve) => {
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', (error) => resolve(error.message));
    });
    request.write(body.slice(0, 10));
    await waitFor(() => started.output().includes('"url":"/auth/signup"'), { what: 'the request to arrive' });
    started.npm.kill('SIGTERM');
    await waitFor(() => started.output().includes('shutting down: finishing in-flight requests'), {
      what: 'the server to hear the SIGTERM sent to npm',
    });
    request.end(body.slice(10));

    expect(await answered).toBe(201);
    expect(await started.exited, started.output()).toBe(0);
    await expectGone(started);
  });

  it('SIGINT to the whole group (Ctrl-C in a terminal): the server stops and npm exits 0', async () => {
    const started = await npmStart();
    expect((await fetch(`${started.url}/health`)).status).toBe(200);
    process.kill(-(started.npm.pid as number), 'SIGINT');
    expect(await started.exited, started.output()).toBe(0);
    await expectGone(started);
  });

  it('gives back, once idle, the memory start-up grew (platform/idle-memory.ts, with the gc npm start exposes)', async () => {
    const started = await npmStart({ logLevel: 'debug' });
    const released = () =>
      started
        .output()
        .split('\n')
        .find((line) => line.includes('memory given back while idle'));
    await waitFor(() => released() !== undefined, { timeoutMs: 10_000, what: 'the idle collection' });
    const { heapMiB, rssMiB } = JSON.parse(released() as string) as { heapMiB: number[]; rssMiB: number[] };
    // start-up grows the young generation to its cap (2 × 16 MiB); the collection shrinks it
    expect(heapMiB[1]).toBeLessThan((heapMiB[0] as number) - 4);
    expect(rssMiB[1]).toBeLessThan(rssMiB[0] as number);
    // the service answers as before
    expect((await fetch(`${started.url}/health`)).status).toBe(200);
    process.kill(started.serverPid, 'SIGTERM');
    expect(await started.exited, started.output()).toBe(0);
  });
});
