// `npm run build`: the service as one ES module, dist/intake.js (loaded by dist/server.js), and the browser's side
// (src/web/client, built by Vite: scripts/build-web.mjs) into dist/web/ beside it.
//
// Why a bundle and not tsc's file-per-module output: Node loads an ES module graph file
// by file, and a few dependencies ship hundreds of small modules (Kysely alone: ~200 ms
// and ~16 MiB at start). One bundled file starts in a fraction of that, which is what
// keeps the service ready in under a second and idle under 120 MiB. Type checking is
// `npm run check` (tsc --noEmit); esbuild only strips the types.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { buildWeb } from './build-web.mjs';

// INTAKE_BUILD_OUT: another place for the entry (the build test); it must lie inside the project, where node_modules is found.
const entry = process.env.INTAKE_BUILD_OUT ?? 'dist/server.js';
if (!process.env.INTAKE_BUILD_OUT) rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
/** The bundle, beside the entry that loads it (see ENTRY below). */
const outfile = path.join(path.dirname(entry), 'intake.js');

await build({
  entryPoints: ['src/server.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  logLevel: 'warning',
  // dist/intake.js.map: stack traces name src/ files and lines when Node runs with
  // --enable-source-maps (NODE_OPTIONS; the process tests do). Off by default: Node then holds
  // the parsed map, ~75 MiB (README, "When something fails"). Without the flag it is never read.
  sourcemap: true,
  sourcesContent: false,
  // Kept as packages: native code (better-sqlite3), optional or lazily loaded drivers
  // (pg, ioredis, undici, nodemailer, recheck), and packages that read their own files at
  // run time (@fastify/swagger-ui serves its static assets from its folder). The AWS SDK
  // (@aws-sdk/*) is imported only when FILE_STORAGE=s3 (platform/files/index.ts): bundled,
  // its megabytes would be parsed at every start, by instances that keep files on disk too.
  external: [
    'better-sqlite3',
    'pg',
    'pg-native',
    'ioredis',
    'undici',
    'nodemailer',
    'recheck',
    '@fastify/swagger-ui',
    '@aws-sdk/*',
  ],
  // Bundled CommonJS code calls require(); an ES module has none unless it is given one.
  banner: {
    js: "import { createRequire as __intakeCreateRequire } from 'node:module'; const require = __intakeCreateRequire(import.meta.url);",
  },
});

/**
 * The entry `npm start` runs: it turns Node's compile cache on, then loads the bundle. Node keeps
 * the code it compiled from the bundle (and from the packages left outside it) and reads it back at
 * the next start instead of parsing and compiling again (measured on SQLite with 1M submissions,
 * builds alternated, nine starts each: ready 787 → 740 ms, idle RSS 119.3 → 117.0 MiB on average).
 * The cache must be on before the bundle is loaded, hence a file of its own. It is kept beside the
 * code it caches, not in Node's default folder of the shared temporary directory, where another user
 * of the machine could leave a cache for the service to load: whoever can write into dist/ can change
 * the code anyway. Where dist/ is read-only the service starts without a cache, silently. Node checks
 * each entry against the file's length and checksum, in a folder per Node version, V8 flags and user,
 * so a new build or Node is never served an old cache. NODE_COMPILE_CACHE=dir (set before start) puts
 * it elsewhere; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
const ENTRY = `// Written by scripts/build.mjs: the compile cache, then the service (intake.js).
import module from 'node:module';
import { fileURLToPath } from 'node:url';

module.enableCompileCache?.(fileURLToPath(new URL('./.compile-cache/', import.meta.url)));
await import('./intake.js');
`;
writeFileSync(entry, ENTRY);

// The pages' scripts and styles, where the bundle looks for them (src/web/assets.ts): web/ beside it.
await buildWeb({ outDir: path.resolve(path.dirname(outfile), 'web'), clean: true });
