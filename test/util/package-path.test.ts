import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { requiredPackageFile } from '../../src/util/package-path.js';

/** What require() itself finds, or the error it throws. */
function requireFinds(fromUrl: string, spec: string): string {
  try {
    return realpathSync(createRequire(fromUrl).resolve(spec));
  } catch (err) {
    return `throws ${(err as NodeJS.ErrnoException).code}`;
  }
}

function ours(fromUrl: string, pkg: string, subpath: string): string {
  try {
    return realpathSync(requiredPackageFile(fromUrl, pkg, subpath).path);
  } catch (err) {
    return `throws ${(err as NodeJS.ErrnoException).code}`;
  }
}

describe('requiredPackageFile', () => {
  const root = mkdtempSync(join(tmpdir(), 'voicectl-package-path-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A package `name` in `dir`/node_modules with this package.json and files. */
  function pkg(dir: string, name: string, manifest: unknown, files: string[]): void {
    const at = join(dir, 'node_modules', name);
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, 'package.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
    for (const f of files) {
      mkdirSync(join(at, f, '..'), { recursive: true });
      writeFileSync(join(at, f), `"${name}/${f}"`);
    }
  }

  const app = join(root, 'app', 'dist');
  mkdirSync(app, { recursive: true });
  const from = pathToFileURL(join(app, 'main.cjs')).href;
  const files = ['data.json', 'data.json.js', 'lib/data.json', 'other.json'];
  pkg(root, 'plain', { exports: { './data.json': './data.json' } }, files);
  pkg(root, 'conditional', { exports: { './data.json': { import: './data.json.js', require: './data.json' } } }, files);
  pkg(root, 'default-first', { exports: { './data.json': { default: './other.json', require: './data.json' } } }, files);
  pkg(root, 'nested', { exports: { './data.json': { node: { import: './data.json.js', require: './lib/data.json' } } } }, files);
  pkg(root, 'pattern', { exports: { './*': './lib/*' } }, files);
  pkg(root, 'no-exports', { main: 'data.json' }, files);
  pkg(root, 'not-exported', { exports: { '.': './data.json' } }, files);
  pkg(root, 'only-import', { exports: { './data.json': { import: './data.json.js' } } }, files);
  pkg(root, 'sugar', { exports: { import: './data.json.js', require: './data.json' } }, files);
  pkg(root, 'broken', '{ "exports": ', files);
  // Found nearer the file asking: the nearer one wins, as with require().
  pkg(join(root, 'app'), 'shadowed', { exports: { './data.json': './other.json' } }, files);
  pkg(root, 'shadowed', { exports: { './data.json': './data.json' } }, files);

  it.each([
    ['plain', 'data.json'],
    ['conditional', 'data.json'],
    ['default-first', 'data.json'],
    ['nested', 'data.json'],
    ['pattern', 'data.json'],
    ['no-exports', 'data.json'],
    ['no-exports', 'lib/data.json'],
    ['not-exported', 'data.json'],
    ['only-import', 'data.json'],
    ['sugar', 'data.json'],
    ['broken', 'data.json'],
    ['shadowed', 'data.json'],
    ['missing', 'data.json'],
  ])('finds %s/%s where require() does', (name, subpath) => {
    expect(ours(from, name, subpath)).toBe(requireFinds(from, `${name}/${subpath}`));
  });

  it("finds libphonenumber-js's metadata and version as require() does", () => {
    const here = pathToFileURL(join(process.cwd(), 'dist', 'main.cjs')).href;
    const found = requiredPackageFile(here, 'libphonenumber-js', 'metadata.max.json');
    expect(realpathSync(found.path)).toBe(requireFinds(here, 'libphonenumber-js/metadata.max.json'));
    // Read from the package.json, not left to require.resolve.
    expect(found.manifest?.version).toBe(createRequire(here)('libphonenumber-js/package.json').version);
  });
});
