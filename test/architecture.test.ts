import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FORM_CONTRACT,
  formContractNames,
  formContractViolations,
  importCycles,
  layeringViolations,
  readImports,
  unitOf,
} from './support/imports.js';

/**
 * The dependency rule of ARCHITECTURE.md ("Layers"), read off the real imports of `src/`:
 * every edge runs downward, and no module imports itself round a cycle.
 */

const SRC = path.resolve(import.meta.dirname, '../src');

describe('the import graph of src/', () => {
  const edges = readImports(SRC);

  it('reads the imports (sanity: the graph is the real one)', () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual({ from: 'app', to: 'platform/db/database' });
    expect(new Set(edges.map((edge) => unitOf(edge.from)))).toContain('features/submissions');
  });

  it('runs one way: no feature imports a higher one, nor one of its own layer', () => {
    expect(layeringViolations(edges)).toEqual([]);
  });

  it('has no cycles', () => {
    expect(importCycles(edges)).toEqual([]);
  });
});

describe('the form’s contract (shared/form.ts)', () => {
  const violations = formContractViolations(SRC);

  it('reads the contract’s names off shared/form.ts', () => {
    expect([...formContractNames(SRC)]).toEqual(
      expect.arrayContaining(['FormField', 'Condition', 'Logic', 'PublicForm', 'FieldError']),
    );
  });

  it('is the one description of the form: imported from there, never copied (on the server and in web/client)', () => {
    expect(violations).toEqual([]);
  });

  it(`is ${FORM_CONTRACT}, in shared: importing nothing`, () => {
    expect(unitOf(FORM_CONTRACT)).toBe('shared');
    expect(readImports(SRC).filter((edge) => edge.from === FORM_CONTRACT)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('catch an upward import', () => {
    const upward = [{ from: 'features/webhooks/events', to: 'features/forms/schemas' }];
    expect(layeringViolations(upward)).toEqual([
      'features/webhooks/events → features/forms/schemas: features/webhooks may not import features/forms (a higher layer)',
    ]);
  });

  it('catch the platform importing a feature, and a sideways import', () => {
    expect(layeringViolations([{ from: 'platform/auth', to: 'features/keys/repo' }])).toHaveLength(1);
    expect(layeringViolations([{ from: 'features/keys/routes', to: 'features/accounts/repo' }])).toEqual([
      'features/keys/routes → features/accounts/repo: features/keys and features/accounts share a layer',
    ]);
  });

  it('allow downward imports, imports inside a unit, and the composition root', () => {
    expect(
      layeringViolations([
        { from: 'features/forms/routes', to: 'features/webhooks/repo' },
        { from: 'features/forms/routes', to: 'features/forms/repo' },
        { from: 'web/layout', to: 'features/forms/presenter' },
        { from: 'app', to: 'web/index' },
        { from: 'platform/auth', to: 'config' },
      ]),
    ).toEqual([]);
  });

  it("keep the browser's code apart: web/client imports only web/components and shared, and no server code imports it", () => {
    expect(
      layeringViolations([
        { from: 'web/client/dashboard/app', to: 'web/components/site-header' },
        { from: 'web/client/dashboard/main', to: 'web/client/dashboard/app' },
        { from: 'web/client/hosted/page', to: 'shared/logic' },
        { from: 'features/submissions/validator', to: 'shared/logic' },
      ]),
    ).toEqual([]);
    expect(layeringViolations([{ from: 'web/client/dashboard/app', to: 'platform/auth' }])).toEqual([
      "web/client/dashboard/app → platform/auth: the browser's code (web/client) may import only web/components and shared",
    ]);
    expect(layeringViolations([{ from: 'shared/logic', to: 'platform/time' }])).toEqual([
      'shared/logic → platform/time: shared (run by the server and the browser) imports nothing but itself',
    ]);
    expect(layeringViolations([{ from: 'web/client/dashboard/app', to: 'web/csp' }])).toHaveLength(1);
    expect(layeringViolations([{ from: 'web/dashboard', to: 'web/client/dashboard/app' }])).toHaveLength(1);
  });

  it('catch a copy of the form’s types and an import that does not lead to shared/form, and pass re-exports and aliases', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-contract-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    try {
      write(
        'shared/form.ts',
        'export interface FormField { id: string }\nexport type Logic = { rules: [] };\n',
      );
      write(
        'platform/problem.ts',
        "import type { FormField } from '../shared/form.js';\nexport type { FormField };\n",
      );
      write(
        'features/forms/schemas.ts',
        "import type { Logic as LogicShape } from '../../shared/form.js';\nexport type Logic = LogicShape;\n",
      );
      write(
        'features/forms/uses.ts',
        "import type { FormField } from '../../platform/problem.js';\nimport type { Logic } from './schemas.js';\n",
      );
      write('web/components/copy.ts', 'export interface FormField { id: string }\n');
      write('web/client/page.ts', "import type { Logic } from '../../features/forms/schemas.js';\n");
      write('web/client/other.ts', "import type { FormField } from '../components/copy.js';\n");
      expect(formContractViolations(dir).sort()).toEqual([
        "web/client/other:1 imports the form's FormField from web/components/copy: import it from shared/form",
        "web/client/page:1 imports the form's Logic from features/forms/schemas: import it from shared/form",
        "web/components/copy:1 declares its own FormField: a copy of shared/form's (use that one)",
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuse a unit that has no layer', () => {
    expect(() => layeringViolations([{ from: 'features/billing/routes', to: 'platform/db' }])).toThrow(
      /features\/billing has no layer/,
    );
  });

  it('find a cycle, however long, and a module that imports itself', () => {
    const cycles = importCycles([
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
      { from: 'e', to: 'e' },
    ]);
    expect(cycles).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('see the import added to a real module', () => {
    const withUpward = [
      ...readImports(SRC),
      { from: 'features/webhooks/events', to: 'features/submissions/repo' },
    ];
    expect(layeringViolations(withUpward)).toHaveLength(1);
  });
});
