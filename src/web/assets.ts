import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type EntryFiles, entryFiles, type Manifest, parseManifest } from './manifest.js';

/** The client build's entries (keys of its manifest: paths relative to src/web/client; see scripts/build-web.mjs). */
export const ENTRIES = {
  dashboard: 'dashboard/main.tsx',
  base: 'styles/base.css',
  hosted: 'hosted/hosted.css',
  /** The hosted page's one script: steps without page loads, live logic, checks; embedded, its height and events to the parent (API.md §11.1, §11.2). */
  page: 'hosted/page.ts',
  /** GET /embed.js: turns a host page's <div data-intake-form> into the form's frame. */
  embed: 'embed/embed.ts',
  icon: 'icon.svg',
} as const;

/** Vite names files `name-<8-character hash>.ext` (a .br or .gz twin adds its extension): such a file never changes, so it may be cached for good. */
const FINGERPRINTED = /-[A-Za-z0-9_-]{8}(?:\.[a-z0-9]+)+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const MANIFEST = '.vite/manifest.json';

/** The client build (scripts/build-web.mjs) as the server sees it. */
export interface WebAssets {
  /** The build's folder (it holds `assets/` and the manifest), or undefined when the client was never built. */
  dir: string | undefined;
  /** An entry's files as URLs (`/assets/…`); empty when there is no build. */
  entry(key: string): EntryFiles;
  /** One built file's URL (an asset such as the icon), if there is a build. */
  url(key: string): string | undefined;
}

/**
 * Where the build is: `web/` beside the bundle when running dist/intake.js (scripts/build.mjs
 * builds it there), else `dist/web/` of the project when running the sources (tsx, Vitest).
 */
export function buildCandidates(): string[] {
  return [
    fileURLToPath(new URL('./web/', import.meta.url)),
    fileURLToPath(new URL('../../dist/web/', import.meta.url)),
  ];
}

/** Reads the manifest of the first candidate folder that has one. */
export function loadWebAssets(candidates: readonly string[] = buildCandidates()): WebAssets {
  for (const dir of candidates) {
    let manifest: Manifest;
    try {
      manifest = parseManifest(fs.readFileSync(path.join(dir, MANIFEST), 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    // The build's assets/ folder is served as /assets/ (index.ts).
    const toUrl = (file: string) => `/${file}`;
    const entries = new Map<string, EntryFiles>();
    return {
      dir,
      entry: (key) => {
        let urls = entries.get(key);
        if (!urls) {
          const files = entryFiles(manifest, key);
          urls = {
            script: files.script === undefined ? undefined : toUrl(files.script),
            preloads: files.preloads.map(toUrl),
            styles: files.styles.map(toUrl),
          };
          entries.set(key, urls);
        }
        return urls;
      },
      url: (key) => {
        const file = manifest[key]?.file;
        return file === undefined ? undefined : toUrl(file);
      },
    };
  }
  return {
    dir: undefined,
    entry: () => ({ script: undefined, preloads: [], styles: [] }),
    url: () => undefined,
  };
}

/**
 * The built files under /assets/ (registered with that prefix): @fastify/static, which picks
 * the .br or .gz the build made when Accept-Encoding allows (and says `Vary: Accept-Encoding`),
 * sets Content-Type, ETag and Last-Modified, and answers 304 to a matching If-None-Match.
 */
export function assetRoutes(assets: WebAssets) {
  return async (scope: FastifyInstance): Promise<void> => {
    if (assets.dir === undefined) return;
    await scope.register(fastifyStatic, {
      root: path.join(assets.dir, 'assets'),
      prefix: '/',
      decorateReply: false,
      preCompressed: true,
      index: false,
      list: false,
      redirect: false,
      dotfiles: 'deny',
      cacheControl: false,
      // Files only (no folders), and the compressed twins are chosen by Accept-Encoding, never asked for by name.
      allowedPath: (pathName) => !pathName.endsWith('/') && !/\.(?:br|gz)$/.test(pathName),
      setHeaders: (reply: FastifyReply, file: string) => {
        reply.header('cache-control', FINGERPRINTED.test(file) ? IMMUTABLE : 'no-cache');
        reply.header('x-content-type-options', 'nosniff');
      },
    });
  };
}
