/**
 * The one atomic-file writer (src/util/atomic-file.ts): a file replaced whole, with the
 * mode its caller asks for, and no other module renaming files into place by hand.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../src/util/atomic-file.js';

const SRC = join(import.meta.dirname, '../../src');
const WRITER = 'util/atomic-file.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voicectl-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;
const leftovers = () => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

describe.each([
  ['writeFileAtomic', (path: string, data: string, m?: number) => writeFileAtomic(path, data, m === undefined ? {} : { mode: m })],
  ['writeFileAtomicSync', async (path: string, data: string, m?: number) => writeFileAtomicSync(path, data, m === undefined ? {} : { mode: m })],
])('%s', (_name, write) => {
  it('replaces a file whole and leaves no temporary file', async () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old');
    await write(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(leftovers()).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('gives the file the mode asked for, even over a file others could read', async () => {
    const file = join(dir, 'secrets.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    await write(file, '{"a":1}', 0o600);
    expect(mode(file)).toBe(0o600);
  });

  it('fails without leaving a temporary file when the file cannot be put in place', async () => {
    // A folder where the file should be: the rename fails after the temporary file is written.
    const target = join(dir, 'taken');
    await import('node:fs/promises').then((fs) => fs.mkdir(join(target, 'inside'), { recursive: true }));
    await expect(write(target, 'x')).rejects.toThrow();
    expect(leftovers()).toEqual([]);
  });
});

describe('atomic writes in src/', () => {
  it('go through src/util/atomic-file.ts: no other module renames a file into place', async () => {
    const files = (await readdir(SRC, { recursive: true })).filter((f) => f.endsWith('.ts')).map((f) => relative(SRC, join(SRC, f)));
    // The run's journal lock renames folders, not files: a folder renamed onto a lock's name is how it is taken atomically.
    const folders = new Set(['campaigns/run/lock.ts']);
    const renaming = files.filter((f) => f !== WRITER && !folders.has(f) && /\bimport\s*\{[^}]*\brename(Sync)?\b[^}]*\}\s*from\s*'node:fs(\/promises)?'/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(renaming).toEqual([]);
  });
});
