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
  ['features/files'],
  ['features/forms'],
  ['features/webhooks'],
  ['features/accounts', 'features/keys', 'features/health'],
  ['features/workspaces'],
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

// --- the form's contract ---------------------------------------------------------------------

/**
 * The form's shape has one description, `shared/form.ts` (ARCHITECTURE.md, "Folders"): the
 * server and the browser's code take its types from there. Read off the source, module by module:
 * - a type import of one of its names must lead there: straight from `shared/form` (always so in
 *   `web/client`), or through a module that passes it on under the same name (a re-export, or an
 *   alias such as forms/schemas.ts's `type Condition = ConditionShape`, named like its schema);
 * - a type declared under one of its names anywhere else is a copy (unless it is such an alias).
 */
export const FORM_CONTRACT = 'shared/form';

/** A module's part in passing the contract's types on. */
interface ModuleTypes {
  /** Local name → where it was imported from (module, and its name there), and whether as a type. */
  imports: Map<string, { from: string; name: string; typeOnly: boolean; line: number }>;
  /** What it exports under a name: a local name, or a name of another module (`export … from`). */
  exports: Map<string, { local: string; from?: string }>;
  /** Types it declares: name → the name it is an alias of (`type X = Y`), if it is one, and where. */
  declarations: Array<{ name: string; aliasOf?: string; line: number }>;
}

/** The names shared/form.ts exports: the contract's types. */
export function formContractNames(srcDir: string): Set<string> {
  const file = path.join(srcDir, `${FORM_CONTRACT}.ts`);
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names = new Set<string>();
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (exported && (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)))
      names.add(statement.name.text);
  }
  return names;
}

function moduleTypes(srcDir: string, file: string): ModuleTypes {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const target = (specifier: ts.Expression) =>
    ts.isStringLiteral(specifier) && specifier.text.startsWith('.')
      ? moduleName(srcDir, path.resolve(path.dirname(file), specifier.text))
      : undefined;
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const types: ModuleTypes = { imports: new Map(), exports: new Map(), declarations: [] };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const from = target(statement.moduleSpecifier);
      const bindings = statement.importClause?.namedBindings;
      if (!from || !bindings || !ts.isNamedImports(bindings)) continue;
      const typeOnly = statement.importClause?.isTypeOnly ?? false;
      for (const element of bindings.elements) {
        types.imports.set(element.name.text, {
          from,
          name: (element.propertyName ?? element.name).text,
          typeOnly: typeOnly || element.isTypeOnly,
          line: lineOf(element),
        });
      }
    } else if (ts.isExportDeclaration(statement)) {
      const from = statement.moduleSpecifier ? target(statement.moduleSpecifier) : undefined;
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
      for (const element of statement.exportClause.elements) {
        const local = (element.propertyName ?? element.name).text;
        types.exports.set(element.name.text, from ? { local, from } : { local });
      }
    } else if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      const aliased =
        ts.isTypeAliasDeclaration(statement) &&
        ts.isTypeReferenceNode(statement.type) &&
        ts.isIdentifier(statement.type.typeName) &&
        !statement.type.typeArguments
          ? statement.type.typeName.text
          : undefined;
      types.declarations.push({ name: statement.name.text, aliasOf: aliased, line: lineOf(statement) });
      const exported = ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (exported) types.exports.set(statement.name.text, { local: statement.name.text });
    }
  }
  return types;
}

/** Every way a module of `src/` (tests left out) breaks the rule of the form's contract, as readable lines. */
export function formContractViolations(srcDir: string): string[] {
  const contract = formContractNames(srcDir);
  const modules = new Map<string, ModuleTypes>();
  for (const file of walk(srcDir)) {
    if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file) || /\.d\.ts$/.test(file)) continue;
    modules.set(moduleName(srcDir, file), moduleTypes(srcDir, file));
  }

  /** Whether `local` in `module` is an import of the contract's `name` from a module that passes it on. */
  const importedContract = (module: ModuleTypes, local: string, name: string, seen: Set<string>): boolean => {
    const imported = module.imports.get(local);
    return imported !== undefined && imported.name === name && passesOn(imported.from, name, seen);
  };
  /** Whether the contract's type `name`, imported from `module`, is shared/form's own. */
  const passesOn = (moduleId: string, name: string, seen = new Set<string>()): boolean => {
    if (moduleId === FORM_CONTRACT) return contract.has(name);
    const key = `${moduleId}#${name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    const module = modules.get(moduleId);
    const exported = module?.exports.get(name);
    if (!module || !exported) return false;
    if (exported.from) return exported.local === name && passesOn(exported.from, name, seen);
    if (importedContract(module, exported.local, name, seen)) return true;
    const declared = module.declarations.find((declaration) => declaration.name === exported.local);
    return declared?.aliasOf !== undefined && importedContract(module, declared.aliasOf, name, seen);
  };

  const found: string[] = [];
  for (const [moduleId, module] of modules) {
    if (unitOf(moduleId) === 'shared') continue;
    const client = unitOf(moduleId) === 'web/client';
    for (const [local, imported] of module.imports) {
      if (!imported.typeOnly || !contract.has(imported.name)) continue;
      const fine = client ? imported.from === FORM_CONTRACT : passesOn(imported.from, imported.name);
      if (!fine) {
        found.push(
          `${moduleId}:${imported.line} imports the form's ${imported.name}${local === imported.name ? '' : ` (as ${local})`} from ${imported.from}: import it from ${FORM_CONTRACT}`,
        );
      }
    }
    for (const declaration of module.declarations) {
      if (!contract.has(declaration.name)) continue;
      const alias =
        declaration.aliasOf !== undefined &&
        importedContract(module, declaration.aliasOf, declaration.name, new Set());
      if (!alias) {
        found.push(
          `${moduleId}:${declaration.line} declares its own ${declaration.name}: a copy of ${FORM_CONTRACT}'s (use that one)`,
        );
      }
    }
  }
  return found;
}
