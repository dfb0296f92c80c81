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

  it.each(['README.md', ...linkedDocuments('README.md')])(
    '%s links only to files in the repository (and to the Intake running on this machine)',
    (document) => {
      const file = path.join(root, document);
      expect(linksLeavingTheRepository(fs.readFileSync(file, 'utf8'), path.dirname(file))).toEqual([]);
    },
  );

  it('the link check finds every kind of link out, and none in code', () => {
    const sample = [
      '# Intake',
      'See [the contract](../shared/API.md), [a page](https://example.com/a), <https://example.org>,',
      'https://example.net/bare, <a href="//cdn.example.com/x.js">x</a>, [gone](docs/nothing-here.md),',
      '[no such heading](#nowhere) and ![img](docs/../../outside.png).',
      '[ref]: https://example.com/ref',
      'Fine: [heading](#intake), [architecture](ARCHITECTURE.md), <http://127.0.0.1:3000/app>,',
      '`https://example.com/in-code` and [code](`x`).',
      '```sh',
      'curl https://example.com/in-a-block',
      '```',
    ].join('\n');
    expect(linksLeavingTheRepository(sample, root)).toEqual([
      '../shared/API.md',
      'https://example.com/a',
      'docs/nothing-here.md',
      '#nowhere',
      'docs/../../outside.png',
      'https://example.com/ref',
      'https://example.org',
      '//cdn.example.com/x.js',
      'https://example.net/bare',
    ]);
  });

  it('links to the API guide in docs/', () => {
    expect(linkTargets(readme)).toContain('docs/api.md');
  });

  it('names the test command that .ci/run runs', () => {
    const ci = fs.readFileSync(path.join(root, '.ci/run'), 'utf8');
    expect(ci).toContain('npm ci');
    expect(ci).toContain('npm test');
  });
});

// --- links ------------------------------------------------------------------------------------

/**
 * A person who clones the project has the repository and nothing else: a document that points
 * outside it (a sibling folder like ../shared, a web page that may move or vanish) leaves them
 * with a dead end. Links to the Intake the reader runs (http://127.0.0.1:3000/…) are the exception.
 */
const LOCAL_SERVICE = /^https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?(?:\/|$)/;

/** The text a renderer turns into links: code blocks and code spans never are. */
function linkableText(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/(`+)[\s\S]*?\1/g, '');
}

/** Every target a Markdown renderer (GitHub's) makes a link of: links, images, references, autolinks, bare URLs, HTML. */
function linkTargets(markdown: string): string[] {
  const text = linkableText(markdown);
  const patterns = [
    /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, // [text](target), ![alt](target)
    /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm, // [label]: target
    /<([a-z][a-z0-9+.-]{1,31}:[^\s<>]+)>/gi, // <scheme:…>
    /(?:href|src)\s*=\s*["']([^"']+)["']/gi, // HTML
  ];
  const targets = patterns.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => match[1] as string),
  );
  // bare URLs, which GitHub links too (those inside <…> or (…) were found above)
  const bare = [...text.matchAll(/(?<![<(="'])\b(?:https?:\/\/|www\.)[^\s<>()]+/gi)].map((match) =>
    match[0].replace(/[.,;:!?*_~'"]+$/, ''),
  );
  return [...new Set([...targets, ...bare])];
}

/**
 * The links of a Markdown document in folder `dir` that lead out of the repository, or to a file or
 * heading that is not there.
 */
function linksLeavingTheRepository(markdown: string, dir: string): string[] {
  return linkTargets(markdown).filter((target) => {
    if (LOCAL_SERVICE.test(target)) return false;
    if (/^[a-z][a-z0-9+.-]*:|^\/\/|^www\./i.test(target)) return true; // another site (or scheme)
    const [pathPart = '', anchor] = target.split('#');
    if (pathPart === '') return anchor !== undefined && !headingSlugs(markdown).includes(anchor);
    const resolved = path.resolve(dir, decodeURIComponent(pathPart.split('?')[0] ?? ''));
    const inside = resolved === root || resolved.startsWith(root + path.sep);
    return !inside || !fs.existsSync(resolved);
  });
}

/** The Markdown documents in the repository that `document` links to. */
function linkedDocuments(document: string): string[] {
  const file = path.join(root, document);
  return linkTargets(fs.readFileSync(file, 'utf8'))
    .map((target) => target.split('#')[0] ?? '')
    .filter((target) => target.endsWith('.md') && !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => path.relative(root, path.resolve(path.dirname(file), target)))
    .filter((target) => !target.startsWith('..') && fs.existsSync(path.join(root, target)))
    .filter((target, index, all) => all.indexOf(target) === index);
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingSlugs(markdown: string): string[] {
  return [...linkableText(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((match) =>
    (match[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-'),
  );
}
