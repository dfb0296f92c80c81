/**
 * Vite's build manifest (`dist/web/.vite/manifest.json`): which fingerprinted files an entry
 * of the client build became. Pure, so the server's pages and the size budget read it alike.
 */

/** One chunk or asset of the manifest: the members we read. Paths are relative to the build's folder. */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  /** A chunk loaded on demand (a lazily loaded view). */
  isDynamicEntry?: boolean;
  /** Chunks this one imports statically (keys of the manifest): loaded with it. */
  imports?: string[];
  /** Chunks imported on demand (keys of the manifest): not part of a page's first load. */
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/** What a page loads for one entry: its script, the chunks that script imports statically, its stylesheets. */
export interface EntryFiles {
  /** The entry's own file: a module script, or (for a stylesheet entry) undefined. */
  script: string | undefined;
  /** Every chunk the script imports statically, directly or not: worth a `<link rel="modulepreload">`. */
  preloads: string[];
  /** Every stylesheet of the entry and of those chunks, the imported ones first (the cascade's order). */
  styles: string[];
}

export function parseManifest(json: string): Manifest {
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('the web build manifest is not an object');
  }
  for (const [key, chunk] of Object.entries(parsed)) {
    if (typeof chunk !== 'object' || chunk === null || typeof (chunk as ManifestChunk).file !== 'string') {
      throw new Error(`the web build manifest's entry ${key} has no file`);
    }
  }
  return parsed as Manifest;
}

/** The files of an entry (a key of the manifest, the source path relative to src/web/client). */
export function entryFiles(manifest: Manifest, key: string): EntryFiles {
  const entry = chunkOf(manifest, key);
  if (entry.file.endsWith('.css')) return { script: undefined, preloads: [], styles: [entry.file] };
  const preloads: string[] = [];
  const styles: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = chunkOf(manifest, name);
    for (const imported of chunk.imports ?? []) visit(imported);
    if (name !== key) preloads.push(chunk.file);
    for (const style of chunk.css ?? []) if (!styles.includes(style)) styles.push(style);
  };
  visit(key);
  return { script: entry.file, preloads, styles };
}

/** The JavaScript a page runs before anything is shown: the entry and its static imports (API.md §11.3's budget). */
export function initialScripts(manifest: Manifest, key: string): string[] {
  const { script, preloads } = entryFiles(manifest, key);
  return script ? [script, ...preloads] : [];
}

function chunkOf(manifest: Manifest, key: string): ManifestChunk {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the web build has no ${key} (is src/web/client's build out of date?)`);
  return chunk;
}

/**
 * What loading each of an entry's lazily loaded chunks costs once the entry runs (API.md
 * §11.3's per-view budget): the chunk and every chunk it imports statically that the entry did
 * not load already. Keyed by the chunk's source (`dashboard/views/keys.tsx`).
 */
export function lazyChunks(manifest: Manifest, key: string): Record<string, string[]> {
  const initial = new Set(initialScripts(manifest, key));
  const lazy: Record<string, string[]> = {};
  for (const name of new Set(chunkOf(manifest, key).dynamicImports ?? [])) {
    const files: string[] = [];
    const visit = (chunkName: string): void => {
      const chunk = chunkOf(manifest, chunkName);
      if (initial.has(chunk.file) || files.includes(chunk.file)) return;
      files.push(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(name);
    lazy[name] = files;
  }
  return lazy;
}
