import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

describe('README', () => {
  it('opens with the command that starts the service and the one that runs the tests', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock).toContain('npm start');
    expect(firstBlock).toContain('npm test');
  });

  it.each(SETTINGS.map((setting) => [setting.name, setting]))(
    'documents %s with its default',
    (name, setting) => {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, `README configuration table lacks ${name}`).toBeDefined();
      expect(row).toContain(setting.defaultText);
    },
  );

  it('names the test command that .ci/run runs', () => {
    const ci = fs.readFileSync(path.join(root, '.ci/run'), 'utf8');
    expect(ci).toContain('npm ci');
    expect(ci).toContain('npm test');
  });
});
