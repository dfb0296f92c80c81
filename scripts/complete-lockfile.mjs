#!/usr/bin/env node
// The npm registry reachable from our machines serves only the Linux builds of packages
// with per-platform binaries (esbuild, rollup, biome...), so `npm install` leaves the other
// platforms' optional packages out of package-lock.json, and `npm ci` then refuses the
// lockfile as out of sync. This adds an entry for each missing optional package, with the
// platform read from its name, so `npm ci` accepts the lockfile and skips those packages as
// foreign to this platform. Run it after every `npm install` that changes dependencies.
import fs from 'node:fs';

const OSES = ['aix', 'android', 'darwin', 'freebsd', 'linux', 'netbsd', 'openbsd', 'openharmony', 'sunos', 'win32'];
const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;

function platformOf(name) {
  if (name === 'fsevents') return { os: ['darwin'] };
  const parts = name.split('/').pop().split('-');
  const at = parts.findIndex((part) => OSES.includes(part));
  if (at === -1) return {};
  const platform = { os: [parts[at]] };
  if (parts[at + 1]) platform.cpu = [parts[at + 1]];
  const rest = parts.slice(at + 2).join('-');
  if (parts[at] === 'linux') platform.libc = [rest.includes('musl') ? 'musl' : 'glibc'];
  return platform;
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    packages[`node_modules/${name}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platformOf(name),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional package entries`);
