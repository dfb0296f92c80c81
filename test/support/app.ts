import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type BuildOptions, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { dropSchema } from '../../src/platform/db/database.js';
import { assertDocumented } from './openapi-check.js';

/**
 * A real Intake on a database of its own: a fresh temporary DATA_DIR (SQLite), or,
 * when DATABASE_URL is set, a fresh PostgreSQL schema dropped again on close.
 */
export interface TestApp {
  app: FastifyInstance;
  config: Config;
  request(options: RequestOptions): Promise<Response>;
  close(): Promise<void>;
}

export interface RequestOptions {
  method: InjectOptions['method'];
  url: string;
  /** A session token or key, sent as `Authorization: Bearer`. */
  auth?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Response {
  status: number;
  headers: LightMyRequestResponse['headers'];
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
  text: string;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    // Development mode, asked for as `npm run dev` does (production mode is the default): the
    // tests' webhook receivers listen on loopback. Tests of production mode override `production`.
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_AUTH: '1000000',
  });
  return { ...base, ...overrides };
}

/** A config with a storage place of its own (and the cleanup for it). */
export async function isolatedStorage(): Promise<{ storage: Partial<Config>; drop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-test-'));
  const url = process.env.DATABASE_URL;
  if (!url) {
    return { storage: { dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  return {
    storage: { dataDir, databaseUrl: url, databaseSchema: schema },
    drop: async () => {
      await dropSchema(url, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function createTestApp(
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  const { storage, drop } = await isolatedStorage();
  const instance = await startInstance(testConfig({ ...storage, ...overrides }), options);
  return {
    ...instance,
    close: async () => {
      await instance.close();
      await drop();
    },
  };
}

/**
 * `count` instances of the service on one PostgreSQL schema, each with its own data directory, as
 * several processes behind a load balancer run (SQLite serves one process). Started one after the
 * other: the first applies the migrations. `close` stops them all and drops the schema.
 */
export async function startInstancesOnOneDatabase(
  count: number,
  overrides: Partial<Config> = {},
): Promise<{ instances: TestApp[]; close: () => Promise<void> }> {
  const { storage, drop } = await isolatedStorage();
  const dirs: string[] = [];
  const instances: TestApp[] = [];
  for (let i = 0; i < count; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-instance-'));
    dirs.push(dataDir);
    instances.push(await startInstance(testConfig({ ...storage, dataDir, ...overrides })));
  }
  return {
    instances,
    close: async () => {
      for (const instance of instances) await instance.close();
      await drop();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The service on a storage place the caller owns (`isolatedStorage`): closing it leaves the
 * storage as it is, for a restart on it or a second instance beside it.
 */
export async function startInstance(config: Config, options: BuildOptions = {}): Promise<TestApp> {
  // scrypt at N = 2^10: a sign-up or log-in costs about a millisecond, not a hundred (hundreds of
  // them run in a suite); what the service itself uses is checked in platform/hashing.test.ts
  const app = await buildApp(config, { logger: false, passwordLog2Cost: 10, ...options });
  return { app, config, request: (options) => inject(app, options), close: () => app.close() };
}

export async function inject(app: FastifyInstance, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth) headers.authorization = `Bearer ${options.auth}`;
  let payload: string | Buffer | undefined;
  if (options.body !== undefined) {
    payload =
      typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.inject({ method: options.method, url: options.url, headers, payload });
  // every answer must be one the OpenAPI document describes (openapi-check.ts)
  assertDocumented(app, options.method ?? 'GET', options.url, response);
  let body: unknown;
  try {
    body = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, text: response.body };
}
