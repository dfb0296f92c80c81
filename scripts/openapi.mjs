#!/usr/bin/env node
// The OpenAPI document, generated without a server, and linted: `npm run openapi`
// (part of `npm run check`). It builds the app on a temporary SQLite DATA_DIR (whatever
// DATABASE_URL says), writes app.swagger() to a file, and runs `redocly lint` on it with the
// rules of redocly.yaml. `--out FILE` keeps the document there (and skips nothing).
// Run through tsx: it imports the TypeScript sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
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
} finally {
  fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  if (outAt > 0) console.log(`openapi: the document is in ${out}`);
}
process.exit(status);
