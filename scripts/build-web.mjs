// The browser's side of Intake: Vite builds src/web/client/ into dist/web/ (fingerprinted
// names under assets/, and .vite/manifest.json for the server to find them), then every
// compressible file gets a .br and a .gz beside it, which the server picks by Accept-Encoding.
//
//   node scripts/build-web.mjs              build into dist/web (npm run build does this)
//   node scripts/build-web.mjs --if-stale   only when a source under src/web is newer than the
//                                           manifest (the tests' global setup; quick otherwise)
//
// Without --clean the output folder is not emptied: the new fingerprinted files land beside
// the old ones and the manifest is swapped in last, in one rename, so a server (or a test run)
// reading the folder meanwhile never sees a half-written build.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientDir = path.join(root, 'src/web/client');
/** What the client build reads: its own folder, the components and the pure modules (src/shared) it shares with the server, this script. */
const SOURCES = [
  clientDir,
  path.join(root, 'src/web/components'),
  path.join(root, 'src/shared'),
  fileURLToPath(import.meta.url),
];
export const MANIFEST = '.vite/manifest.json';
/** The Vite entries, by the names the server asks the manifest for (relative to src/web/client). */
export const ENTRIES = {
  dashboard: 'dashboard/main.tsx',
  base: 'styles/base.css',
  hosted: 'hosted/hosted.css',
  /** The hosted page's one script: steps without page loads, live logic, checks; embedded, its height and events to the parent (API.md §11.1, §11.2). */
  page: 'hosted/page.ts',
  /** GET /embed.js: turns a host page's <div data-intake-form> into the form's frame. */
  embed: 'embed/embed.ts',
};
/**
 * Entries built apart from the others: the hosted page's script and embed.js are one file each
 * (the page's budget counts every request, and its script must not wait on a second), whatever
 * they import that the dashboard imports too (shared/, web/components): in one build Rollup would
 * put such a module in a chunk of its own, loaded by both.
 */
const STANDALONE = ['page', 'embed'];
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|html|txt|map)$/;

/** Builds the client into `outDir` (default dist/web); `clean` empties it first. */
export async function buildWeb({ outDir = path.join(root, 'dist/web'), clean = false } = {}) {
  if (clean) fs.rmSync(outDir, { recursive: true, force: true });
  const entries = Object.entries(ENTRIES);
  const builds = [
    entries.filter(([name]) => !STANDALONE.includes(name)),
    entries.filter(([name]) => STANDALONE.includes(name)),
  ];
  const manifests = [];
  for (const [index, inputs] of builds.entries()) {
    const manifest = `.vite/manifest.${process.pid}.${index}.json`;
    await viteBuild(outDir, Object.fromEntries(inputs), manifest);
    manifests.push(path.join(outDir, manifest));
  }
  const assetsDir = path.join(outDir, 'assets');
  for (const name of fs.readdirSync(assetsDir)) {
    if (COMPRESSIBLE.test(name)) precompress(path.join(assetsDir, name));
  }
  // Last, in one step: the manifest naming the new files (the builds' manifests merged).
  const merged = Object.assign({}, ...manifests.map((file) => JSON.parse(fs.readFileSync(file, 'utf8'))));
  const staged = path.join(outDir, `.vite/manifest.${process.pid}.json`);
  fs.writeFileSync(staged, JSON.stringify(merged, null, 2));
  for (const file of manifests) fs.rmSync(file);
  fs.renameSync(staged, path.join(outDir, MANIFEST));
  return outDir;
}

/** One Vite build of `inputs` (entry name → file under src/web/client) into `outDir`, its manifest at `manifest`. */
async function viteBuild(outDir, inputs, manifest) {
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: clientDir,
    logLevel: 'warn',
    // No public/ folder: every file served comes through the bundler and so has a fingerprint.
    publicDir: false,
    esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
    build: {
      outDir,
      emptyOutDir: false,
      manifest,
      target: 'es2022',
      // Assets stay files (fingerprinted, cached for good): a data: URL would need a looser CSP.
      assetsInlineLimit: 0,
      // The server writes <link rel="modulepreload"> for every static import from the manifest.
      modulePreload: { polyfill: false },
      sourcemap: false,
      reportCompressedSize: false,
      rollupOptions: {
        input: Object.fromEntries(Object.entries(inputs).map(([name, file]) => [name, path.join(clientDir, file)])),
        output: {
          entryFileNames: 'assets/[name]-[hash].js',
          chunkFileNames: 'assets/[name]-[hash].js',
          assetFileNames: 'assets/[name]-[hash][extname]',
        },
      },
    },
  });
}

/** Writes file.br (Brotli, quality 11) and file.gz (gzip -9), each only when it is smaller. */
function precompress(file) {
  const content = fs.readFileSync(file);
  const variants = {
    '.br': zlib.brotliCompressSync(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    '.gz': zlib.gzipSync(content, { level: 9 }),
  };
  for (const [extension, compressed] of Object.entries(variants)) {
    const target = file + extension;
    if (compressed.length >= content.length) continue;
    // Written aside and renamed: a server reading the folder meanwhile sees the whole file or none.
    fs.writeFileSync(`${target}.${process.pid}.tmp`, compressed);
    fs.renameSync(`${target}.${process.pid}.tmp`, target);
  }
}

/** Whether a source of the client build is newer than the manifest in `outDir` (or there is none). */
export function isStale(outDir = path.join(root, 'dist/web')) {
  let built;
  try {
    built = fs.statSync(path.join(outDir, MANIFEST)).mtimeMs;
  } catch {
    return true;
  }
  const newest = (entry) => {
    const stat = fs.statSync(entry);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newest(path.join(entry, name))));
  };
  return SOURCES.some((source) => fs.existsSync(source) && newest(source) > built);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--if-stale') || isStale()) await buildWeb({ clean: process.argv.includes('--clean') });
}
