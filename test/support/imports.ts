import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The layers of `src/`, highest first (ARCHITECTURE.md, "Layers"). A module may import from
 * its own layer's unit and from any lower layer, never from a higher one; units that share a
 * layer (accounts, keys, health) do not import each other. `app.ts` and `server.ts` are the
 * composition root above everything.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['root'],
  ['web'],
  ['features/analytics'],
  ['features/submissions'],
  ['features/forms'],
  ['features/webhooks'],
  ['features/accounts', 'features/keys', 'features/health'],
  ['features/environments'],
  ['platform'],
  ['shared'],
];

/** One import: `from` and `to` are paths relative to `src/`, without extension. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** The unit a module belongs to: `web`, `web/client`, `features/forms`, `platform`, `shared`, or `root`. */
export function unitOf(module: string): string {
  const parts = module.split('/');
  if (parts[0] === 'features' && parts[1]) return `features/${parts[1]}`;
  if (parts[0] === 'web' && parts[1] === 'client') return 'web/client';
  if (parts[0] === 'web' || parts[0] === 'platform' || parts[0] === 'shared') return parts[0];
  if (module === 'config') return 'platform';
  return 'root';
}

function layerOf(unit: string): number {
  const index = LAYERS.findIndex((layer) => layer.includes(unit));
  if (index < 0) throw new Error(`${unit} has no layer: add it to LAYERS`);
  return index;
}

/** Every relative import of every non-test module under `srcDir` (type-only imports included). */
export function readImports(srcDir: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of walk(srcDir)) {
    if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
    const from = moduleName(srcDir, file);
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), imported.fileName);
      edges.push({ from, to: moduleName(srcDir, target) });
    }
  }
  return edges;
}

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

function moduleName(srcDir: string, file: string): string {
  return path
    .relative(srcDir, file)
    .split(path.sep)
    .join('/')
    .replace(/\.(?:js|jsx|ts|tsx)$/, '');
}

/**
 * The browser's code (`web/client`, bundled by Vite) stands apart: it may import only itself,
 * the components the server renders too (`web/components`) and the pure modules both run
 * (`shared`), never server code; and nothing on the server imports it. `shared` imports nothing.
 */
function clientViolation(from: string, to: string): string | undefined {
  const fromClient = unitOf(from) === 'web/client';
  const toClient = unitOf(to) === 'web/client';
  if (fromClient && !toClient && !to.startsWith('web/components/') && unitOf(to) !== 'shared') {
    return `${from} → ${to}: the browser's code (web/client) may import only web/components and shared`;
  }
  if (unitOf(from) === 'shared' && unitOf(to) !== 'shared')
    return `${from} → ${to}: shared (run by the server and the browser) imports nothing but itself`;
  if (!fromClient && toClient)
    return `${from} → ${to}: server code may not import the browser's (web/client)`;
  return undefined;
}

/** Edges that run upward or sideways between units, as readable lines. */
export function layeringViolations(edges: readonly ImportEdge[]): string[] {
  const found: string[] = [];
  for (const { from, to } of edges) {
    const client = clientViolation(from, to);
    if (client) {
      found.push(client);
      continue;
    }
    if (unitOf(from) === 'web/client') continue;
    const fromUnit = unitOf(from);
    const toUnit = unitOf(to);
    if (fromUnit === toUnit || fromUnit === 'root') continue;
    const fromLayer = layerOf(fromUnit);
    const toLayer = layerOf(toUnit);
    if (toLayer < fromLayer)
      found.push(`${from} → ${to}: ${fromUnit} may not import ${toUnit} (a higher layer)`);
    else if (toLayer === fromLayer) found.push(`${from} → ${to}: ${fromUnit} and ${toUnit} share a layer`);
  }
  return found;
}

/** Every import cycle between modules, each as the path round it (Tarjan's strongly connected components). */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    next.get(from)?.push(to);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfImport = component.length === 1 && (next.get(node) ?? []).includes(node);
    if (component.length > 1 || selfImport) cycles.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return cycles;
}
