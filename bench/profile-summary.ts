import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the time goes in a V8 CPU profile (`node --cpu-prof`): self time by function,
 * by package or source file, and total (inclusive) time of the service's own functions.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [top]
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** node_modules/<package>, a file of the service, node: internals, or V8's own pseudo-frames. */
function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const own = /\/(dist|src)\/(.+)$/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

const keyOf = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'} ${areaOf(node.callFrame.url, node.callFrame.functionName)}:${
    node.callFrame.lineNumber + 1
  }`;

export function summarizeProfile(file: string, top = 25): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // self time per node, from the samples and their time deltas (µs)
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  const idle = [...self.entries()]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((sum, [, value]) => sum + value, 0);
  const busy = total - idle;

  const selfByFunction = new Map<string, number>();
  const selfByArea = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, time] of self) {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const key = keyOf(node);
    selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + time);
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    selfByArea.set(area, (selfByArea.get(area) ?? 0) + time);
    // inclusive time of the service's own functions: each counted once per stack
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (
        !frame ||
        !/\/(dist|src)\//.test(frame.callFrame.url) ||
        frame.callFrame.url.includes('node_modules')
      )
        continue;
      const frameKey = keyOf(frame);
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      inclusive.set(frameKey, (inclusive.get(frameKey) ?? 0) + time);
    }
  }

  const share = (time: number) => `${((time / busy) * 100).toFixed(1).padStart(5)} %`;
  const list = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, time]) => `  ${share(time)}  ${(time / 1000).toFixed(0).padStart(6)} ms  ${key}`);
  return [
    `${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy ` +
      `(${((busy / total) * 100).toFixed(0)} % of the time); shares below are of the busy time.`,
    '',
    'Self time by package / file:',
    ...list(selfByArea, 20),
    '',
    `Self time by function (top ${top}):`,
    ...list(selfByFunction, top),
    '',
    "Total time (self + callees) of the service's own functions:",
    ...list(inclusive, top),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  console.log(summarizeProfile(file, Number(process.argv[3] ?? 25)));
}
