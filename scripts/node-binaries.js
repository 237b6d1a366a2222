// The Node binaries that tests and benchmarks run voicectl on: this Node, and the newest
// of each major version that scripts/fetch-node.sh put in the cache folder.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const nodeCacheDir = () => process.env.VOICECTL_NODE_CACHE || join(homedir(), '.cache', 'voicectl-node');

const parse = (v) => v.replace(/^v/, '').split('.').map(Number);
const newer = (a, b) => {
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

/** [{ version: 'v22.23.3', path }], this Node first, then one per other major version, oldest first. */
export function nodeBinaries() {
  const own = { version: process.version, path: process.execPath };
  const byMajor = new Map();
  const dir = nodeCacheDir();
  const entries = existsSync(dir) ? readdirSync(dir) : [];
  for (const name of entries) {
    if (!/^\d+\.\d+\.\d+$/.test(name)) continue;
    const path = join(dir, name, 'bin', 'node');
    if (!existsSync(path)) continue;
    const major = parse(name)[0];
    if (major === parse(process.version)[0]) continue;
    const seen = byMajor.get(major);
    if (!seen || newer(name, seen.version)) byMajor.set(major, { version: `v${name}`, path });
  }
  return [own, ...[...byMajor.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v)];
}
