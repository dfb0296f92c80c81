import { describe, expect, it } from 'vitest';
import { entryFiles, initialScripts, type Manifest, parseManifest } from './manifest.js';

// The shape Vite writes: an entry importing a shared chunk (which has CSS of its own and imports
// another), a lazy view, a stylesheet entry and an asset.
const manifest: Manifest = {
  'dashboard/main.tsx': {
    file: 'assets/dashboard-AAAAAAAA.js',
    src: 'dashboard/main.tsx',
    isEntry: true,
    imports: ['_preact-BBBBBBBB.js', '_ui-CCCCCCCC.js'],
    dynamicImports: ['dashboard/inbox.tsx'],
    css: ['assets/dashboard-DDDDDDDD.css'],
  },
  '_preact-BBBBBBBB.js': { file: 'assets/preact-BBBBBBBB.js' },
  '_ui-CCCCCCCC.js': {
    file: 'assets/ui-CCCCCCCC.js',
    imports: ['_preact-BBBBBBBB.js'],
    css: ['assets/ui-EEEEEEEE.css'],
  },
  'dashboard/inbox.tsx': {
    file: 'assets/inbox-FFFFFFFF.js',
    src: 'dashboard/inbox.tsx',
    isDynamicEntry: true,
    imports: ['_preact-BBBBBBBB.js'],
  } as Manifest[string],
  'styles/base.css': { file: 'assets/base-GGGGGGGG.css', src: 'styles/base.css', isEntry: true },
  'icon.svg': { file: 'assets/icon-HHHHHHHH.svg', src: 'icon.svg' },
};

describe('entryFiles', () => {
  it('lists the script, every static import once (not the lazy ones), and the stylesheets, imported first', () => {
    expect(entryFiles(manifest, 'dashboard/main.tsx')).toEqual({
      script: 'assets/dashboard-AAAAAAAA.js',
      preloads: ['assets/preact-BBBBBBBB.js', 'assets/ui-CCCCCCCC.js'],
      styles: ['assets/ui-EEEEEEEE.css', 'assets/dashboard-DDDDDDDD.css'],
    });
  });

  it('takes a stylesheet entry as a stylesheet', () => {
    expect(entryFiles(manifest, 'styles/base.css')).toEqual({
      script: undefined,
      preloads: [],
      styles: ['assets/base-GGGGGGGG.css'],
    });
  });

  it('names what is missing', () => {
    expect(() => entryFiles(manifest, 'dashboard/nope.tsx')).toThrow(/no dashboard\/nope\.tsx/);
    const broken: Manifest = { 'a.ts': { file: 'assets/a.js', imports: ['_gone.js'] } };
    expect(() => entryFiles(broken, 'a.ts')).toThrow(/no _gone\.js/);
  });
});

describe('initialScripts', () => {
  it('is what runs before the first paint: the entry and its static imports (API.md §11.3 budget)', () => {
    expect(initialScripts(manifest, 'dashboard/main.tsx')).toEqual([
      'assets/dashboard-AAAAAAAA.js',
      'assets/preact-BBBBBBBB.js',
      'assets/ui-CCCCCCCC.js',
    ]);
    expect(initialScripts(manifest, 'styles/base.css')).toEqual([]);
  });
});

describe('parseManifest', () => {
  it('reads Vite’s JSON and refuses what is not a manifest', () => {
    expect(parseManifest(JSON.stringify(manifest))).toEqual(manifest);
    expect(() => parseManifest('[]')).toThrow(/not an object/);
    expect(() => parseManifest('{"a.ts":{}}')).toThrow(/a\.ts has no file/);
  });
});
