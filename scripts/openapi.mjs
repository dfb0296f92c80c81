#!/usr/bin/env node
// The OpenAPI document, generated without a server, and linted: `npm run openapi`
// (part of `npm run check`). It builds the app on a temporary SQLite DATA_DIR (whatever
// DATABASE_URL says), writes app.swagger() to a file, and runs `redocly lint` on it with the
// rules of redocly.yaml. `--out FILE` keeps the document there (and skips nothing).
// It also makes the dashboard's types of the API from the document (openapi-typescript): the
// one source of the client's request and answer types is the route schemas. `--types` writes
// them to src/web/client/dashboard/api/schema.d.ts (`npm run api-types`); without it, the
// committed file is checked against them, and a stale one fails the check.
// Run through tsx: it imports the TypeScript sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const TYPES = path.join(root, 'src/web/client/dashboard/api/schema.d.ts');
const writeTypes = process.argv.includes('--types');
const outAt = process.argv.indexOf('--out');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-openapi-'));
const out = outAt > 0 ? path.resolve(process.argv[outAt + 1]) : path.join(work, 'openapi.json');

let status = 1;
try {
  // Only what the document needs: a private SQLite database, no logs.
  const config = loadConfig({ DATA_DIR: work, LOG_LEVEL: 'silent' });
  const app = await buildApp(config, { logger: false });
  try {
    fs.writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  } finally {
    await app.close();
  }
  const lint = spawnSync(
    path.join(root, 'node_modules', '.bin', 'redocly'),
    ['lint', out, '--config', path.join(root, 'redocly.yaml'), '--format', 'codeframe'],
    {
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  status = lint.status ?? 1;
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const types = `// Made by \`npm run api-types\` from the OpenAPI document (scripts/openapi.mjs): do not edit.\n${astToString(
    await openapiTS(JSON.parse(fs.readFileSync(out, 'utf8'))),
  )}`;
  if (writeTypes) {
    fs.mkdirSync(path.dirname(TYPES), { recursive: true });
    fs.writeFileSync(TYPES, types);
    console.log(`openapi: the dashboard's API types are in ${path.relative(root, TYPES)}`);
  } else if (!fs.existsSync(TYPES) || fs.readFileSync(TYPES, 'utf8') !== types) {
    console.error(`openapi: ${path.relative(root, TYPES)} is not what the route schemas say: run \`npm run api-types\``);
    status = 1;
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  if (outAt > 0) console.log(`openapi: the document is in ${out}`);
}
process.exit(status);
