import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './mail.js';

/**
 * A PostgreSQL server of the test's own (initdb into a temporary folder, on a free loopback
 * port), which the test may stop, start and restart underneath Intake. The machine's shared
 * server is never touched. PostgreSQL refuses to run as root: when the tests run as root,
 * the cluster belongs to the `postgres` system user.
 */
export interface PostgresCluster {
  url: string;
  port: number;
  /** `pg_ctl stop -m <mode>`; resolves once the server is down. */
  stop(mode?: 'smart' | 'fast' | 'immediate'): Promise<void>;
  /** `pg_ctl start`; resolves once the server accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl restart -m <mode>`; resolves once the server accepts connections again. */
  restart(mode?: 'smart' | 'fast' | 'immediate'): Promise<void>;
  /** Stops the server (immediately) and deletes its folder. */
  destroy(): Promise<void>;
}

/** Where Debian keeps the server binaries (pg_ctl, initdb), or undefined when not installed. */
export function postgresBinaries(): string | undefined {
  const fromPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (fromPath) return path.dirname(fs.realpathSync(fromPath));
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb'))) return bin;
  }
  return undefined;
}

function runAsOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export async function createPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) are not installed');
  const owner = runAsOwner();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-pg-'));
  const data = path.join(root, 'data');
  const logFile = path.join(root, 'server.log');
  if (owner) fs.chownSync(root, owner.uid, owner.gid);
  const port = await freePort();

  // Asynchronous: the test's own load keeps running while the server stops and starts.
  const run = (program: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      execFile(
        path.join(bin, program),
        args,
        {
          timeout: 60_000,
          ...(owner ?? {}),
          env: { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
        },
        (error, stdout, stderr) => {
          if (!error) return resolve();
          const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
          reject(new Error(`${program} ${args.join(' ')} failed: ${stderr}${stdout}\n${log}`));
        },
      );
    });

  await run('initdb', ['-D', data, '-U', 'root', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  // Only loopback, only this port, sockets in the cluster's folder; no fsync (a stopped or
  // crashed server keeps what the OS holds: only the machine crashing would lose it).
  const options = [
    `-c listen_addresses=127.0.0.1`,
    `-c port=${port}`,
    `-c unix_socket_directories=${root}`,
    '-c fsync=off',
    '-c max_connections=50',
  ].join(' ');
  const ctl = (args: string[]) => run('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', ...args]);
  await ctl(['-o', options, 'start']);
  await run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'root', 'intake']);

  // Stopping a stopped server, or starting a running one, is a no-op: a test that failed
  // halfway leaves the next one a server in a known state.
  let up = true;
  return {
    url: `postgres://root@127.0.0.1:${port}/intake`,
    port,
    stop: async (mode = 'fast') => {
      if (!up) return;
      await ctl(['-m', mode, 'stop']);
      up = false;
    },
    start: async () => {
      if (up) return;
      await ctl(['-o', options, 'start']);
      up = true;
    },
    restart: (mode = 'fast') => ctl(['-m', mode, '-o', options, 'restart']),
    destroy: async () => {
      await ctl(['-m', 'immediate', 'stop']).catch(() => undefined);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
