/**
 * Where `require("pkg/subpath")` finds a file that a package exports, without asking
 * require.resolve: for a package with an "exports" map, Node's resolve loads its ES module
 * resolver (four of its own modules), about 6 ms of a command that reads one JSON file
 * from a package (`contacts validate` reads libphonenumber-js's metadata so).
 *
 * The package's folder is found in the folders require() looks in, in its order; its
 * package.json's "exports" entry for the subpath, read with require()'s conditions
 * ("require", "node", "node-addons", "default", first in the entry's own order), names the
 * file. Anything else (no such entry, a nested or pattern entry, no package folder) is
 * left to require.resolve, so the answer is always require()'s.
 * test/util/package-path.test.ts compares the two.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isObject } from './is-object.js';

const REQUIRE_CONDITIONS = new Set(['require', 'node', 'node-addons', 'default']);

export interface PackageFile {
  path: string;
  /** The package's package.json, as read (undefined when require.resolve found the file). */
  manifest?: { version?: string; exports?: unknown };
}

/** `subpath` of `pkg` as require() from `fromUrl` (a module's import.meta.url) finds it. */
export function requiredPackageFile(fromUrl: string, pkg: string, subpath: string): PackageFile {
  const req = createRequire(fromUrl);
  for (const dir of req.resolve.paths(pkg) ?? []) {
    const root = join(dir, pkg);
    let text: string;
    try {
      text = readFileSync(join(root, 'package.json'), 'utf8');
    } catch {
      continue;
    }
    // The first folder with the package is the one require() uses, whatever it holds.
    let manifest: PackageFile['manifest'];
    try {
      manifest = JSON.parse(text) as PackageFile['manifest'];
    } catch {
      break;
    }
    const target = exportTarget(manifest?.exports, `./${subpath}`);
    if (target !== undefined) return { path: join(root, target), manifest };
    break;
  }
  return { path: req.resolve(`${pkg}/${subpath}`) };
}

/** The file an "exports" map names for `key` under require()'s conditions, when it names one plainly. */
function exportTarget(exports: unknown, key: string): string | undefined {
  if (!isObject(exports)) return undefined;
  const entry = exports[key];
  if (typeof entry === 'string') return plainTarget(entry);
  if (!isObject(entry)) return undefined;
  for (const [condition, value] of Object.entries(entry)) {
    if (!REQUIRE_CONDITIONS.has(condition)) continue;
    return typeof value === 'string' ? plainTarget(value) : undefined;
  }
  return undefined;
}

/** A target inside the package ("./x.json"), not one that climbs out or holds a pattern. */
const plainTarget = (target: string): string | undefined =>
  target.startsWith('./') && !target.includes('*') && !target.split('/').some((part) => part === '..' || part === 'node_modules') ? target : undefined;
