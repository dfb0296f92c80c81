import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedStorage } from './support/app.js';
import { buildBundle, rssMiB, startService } from './support/process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `npm start` runs the esbuild bundle (scripts/build.mjs), not the sources the other tests
 * run through tsx: this builds it afresh and drives it, so a dependency that cannot be
 * bundled (a missing external, a CommonJS require) fails here and not in production.
 */
describe('the built service (npm run build, npm start)', () => {
  const outDir = path.join(root, 'node_modules', '.cache', `intake-build-${process.pid}`);
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    fs.rmSync(outDir, { recursive: true, force: true });
    for (const cleanup of cleanups) await cleanup();
  });

  it('starts from the bundle, serves the API, the docs and the pages, and stops cleanly on SIGTERM', async () => {
    const entry = path.join(outDir, 'server.js');
    buildBundle(entry);
    // the entry turns the compile cache on, then loads the bundle beside it
    const bundle = path.join(outDir, 'intake.js');
    expect(fs.readFileSync(entry, 'utf8')).toContain("await import('./intake.js')");
    // its source map, for stack traces that name src/ (node --enable-source-maps)
    const map = JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources.some((source) => source.endsWith('src/features/submissions/submit.ts'))).toBe(true);
    // the AWS SDK is loaded only when FILE_STORAGE=s3: never among the bundle's static imports,
    // which Node loads at start (a static one cost every instance 6 MiB of idle RSS)
    const bundled = fs.readFileSync(bundle, 'utf8');
    expect(bundled).not.toMatch(/^\s*import\s[^;]*?from\s*["']@aws-sdk\//m);
    expect(bundled).toMatch(/import\(["']@aws-sdk\/client-s3["']\)/);
    const { storage, drop } = await isolatedStorage();
    cleanups.push(drop);
    const service = await startService(
      {
        DATA_DIR: storage.dataDir,
        DATABASE_URL: storage.databaseUrl,
        DATABASE_SCHEMA: storage.databaseSchema,
        NODE_ENV: 'production',
      },
      20_000,
      entry,
    );
    try {
      const health = await fetch(`${service.url}/health`);
      expect(health.status).toBe(200);
      const signup = await fetch(`${service.url}/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `build-${process.pid}@example.com`,
          password: 'correct horse battery',
        }),
      });
      expect(signup.status).toBe(201);
      const { token } = (await signup.json()) as { token: string };
      const form = await fetch(`${service.url}/forms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          title: 'Built',
          environment: 'development',
          status: 'live',
          fields: [{ id: 'email', type: 'email', label: 'E-mail', required: true }],
        }),
      });
      expect(form.status).toBe(201);
      const { id } = (await form.json()) as { id: string };
      // A form's answers are written by JSON.stringify (platform/http/plain-json.ts): through the
      // schema's compiled serializer, the first read of a form compiled Ajv validators for every
      // field type, for each route, and the process kept them (+87 MiB, then +53 MiB measured).
      const pid = service.child.pid as number;
      const measured = fs.existsSync(`/proc/${pid}/status`);
      const rssBefore = measured ? rssMiB(pid) : 0;
      for (const path of [`/forms/${id}`, '/forms?environment=development', `/forms/${id}`]) {
        const read = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
        expect(read.status, path).toBe(200);
      }
      if (measured) expect(rssMiB(pid) - rssBefore).toBeLessThan(24);
      const refused = await fetch(`${service.url}/forms/${id}/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { email: 'not an address' } }),
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { code: string }).code).toBe('validation_failed');
      const accepted = await fetch(`${service.url}/forms/${id}/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { email: 'ada@example.com' } }),
      });
      expect(accepted.status).toBe(201);
      const docs = await fetch(`${service.url}/docs/`);
      expect(docs.status).toBe(200);
      const openapi = await fetch(`${service.url}/openapi.json`);
      expect(((await openapi.json()) as { openapi: string }).openapi).toBe('3.1.0');
      // The pages: JSX rendered by the bundle, the client build found beside it (web/), served compressed.
      const shell = await fetch(`${service.url}/app`);
      expect(shell.status).toBe(200);
      expect(shell.headers.get('content-security-policy')).toContain("default-src 'self'");
      const script = /<script type="module" src="([^"]+)"/.exec(await shell.text())?.[1];
      expect(script).toMatch(/^\/assets\/dashboard-[\w-]{8}\.js$/);
      const client = await fetch(`${service.url}${script}`, { headers: { 'accept-encoding': 'br' } });
      expect(client.status).toBe(200);
      expect(client.headers.get('content-encoding')).toBe('br');
      // the embedding script at its fixed URL, from the same build (API.md §11.2)
      const embed = await fetch(`${service.url}/embed.js`, { headers: { 'accept-encoding': 'gzip' } });
      expect(embed.status).toBe(200);
      expect(embed.headers.get('content-encoding')).toBe('gzip');
      expect(embed.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(await embed.text()).toContain('data-intake-form');
      const missing = await fetch(`${service.url}/f/nope`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
    } finally {
      expect(await service.stop('SIGTERM')).toBe(0);
    }
    // The bundle's compiled code was kept beside it (the entry's compile cache, written on the
    // way out), and the next start reads it rather than compiling the bundle again.
    const cached = fs
      .readdirSync(path.join(outDir, '.compile-cache'), { recursive: true, withFileTypes: true })
      .filter((file) => file.isFile());
    expect(cached.length).toBeGreaterThan(0);
    const again = await startService(
      {
        DATA_DIR: storage.dataDir,
        DATABASE_URL: storage.databaseUrl,
        DATABASE_SCHEMA: storage.databaseSchema,
        NODE_ENV: 'production',
        NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
      },
      20_000,
      entry,
    );
    try {
      expect((await fetch(`${again.url}/health`)).status).toBe(200);
      // Node 24: "V8 code cache for ESM file:///…/intake.js was accepted"; Node 22: "cache for file:///…/intake.js was accepted"
      expect(again.output()).toMatch(/\/intake\.js was accepted/);
    } finally {
      expect(await again.stop('SIGTERM')).toBe(0);
    }
  });
});
