import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES, loadWebAssets } from '../src/web/assets.js';
import { initialScripts, lazyChunks, parseManifest } from '../src/web/manifest.js';
import { createTestApp, type TestApp } from './support/app.js';

/** kB as API.md §11 counts them: 1000 bytes, of gzip -9. */
const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/**
 * The size budgets of API.md §11, measured on the real client build (dist/web, rebuilt by the
 * tests' global setup when a source is newer): the dashboard's initial JavaScript ≤ 60 kB gzip.
 */
describe('the client build’s budgets', () => {
  const assets = loadWebAssets();
  const dir = assets.dir ?? '';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('counts what /app really loads: the entry and every chunk it imports statically', async () => {
    const manifest = parseManifest(fs.readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8'));
    const html = (await t.request({ method: 'GET', url: '/app' })).text;
    const loaded = [
      ...html.matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="\/([^"]+)"/g),
    ].map((match) => match[1]);
    expect(loaded.sort()).toEqual(initialScripts(manifest, ENTRIES.dashboard).sort());
  });

  it('builds the hosted page’s script and embed.js as one file each, sharing no chunk with the dashboard', () => {
    const manifest = parseManifest(fs.readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8'));
    for (const entry of [ENTRIES.page, ENTRIES.embed])
      expect(initialScripts(manifest, entry)).toHaveLength(1);
  });

  it('keeps the dashboard’s initial JavaScript within 60 kB gzip (API.md §11.3)', () => {
    const manifest = parseManifest(fs.readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8'));
    const files = initialScripts(manifest, ENTRIES.dashboard);
    expect(files.length).toBeGreaterThan(0);
    const sizes = files.map((file) => ({ file, gzip: gzipSize(path.join(dir, file)) }));
    const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
    const styles = assets
      .entry(ENTRIES.base)
      .styles.concat(assets.entry(ENTRIES.dashboard).styles)
      .map((url) => gzipSize(path.join(dir, url)));
    console.info(
      `dashboard initial JS: ${sizes.map(({ file, gzip }) => `${file} ${gzip} B`).join(', ')}; total ${total} B gzip -9; CSS ${styles.reduce((a, b) => a + b, 0)} B`,
    );
    expect(total).toBeLessThanOrEqual(60_000);
  });

  it('keeps each lazily loaded view within 40 kB gzip, beyond what the first load brought (API.md §11.3)', () => {
    const manifest = parseManifest(fs.readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8'));
    const views = lazyChunks(manifest, ENTRIES.dashboard);
    // the views are really loaded lazily: sign-in, forms, keys, environments, account at least
    expect(Object.keys(views).length).toBeGreaterThanOrEqual(5);
    const sizes = Object.entries(views).map(([view, files]) => ({
      view,
      gzip: files.reduce((sum, file) => sum + gzipSize(path.join(dir, file)), 0),
    }));
    console.info(
      `dashboard views: ${sizes.map(({ view, gzip }) => `${view} ${gzip} B`).join(', ')} (gzip -9)`,
    );
    for (const { view, gzip } of sizes) expect(gzip, view).toBeLessThanOrEqual(40_000);
  });
});
