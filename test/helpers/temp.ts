/** Throwaway folders for tests, and how they go away. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';

export interface TempDir {
  dir: string;
  remove(): void;
}

export function tempDir(prefix = 'voicectl-test-'): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Throwaway folders for the tests of a file: each call makes one, removed after the test that made it. */
export function tempDirs(prefix?: string): () => string {
  const made: TempDir[] = [];
  afterEach(() => {
    for (const t of made.splice(0)) t.remove();
  });
  return () => {
    const t = tempDir(prefix);
    made.push(t);
    return t.dir;
  };
}

/** One throwaway folder for the tests of a file (or describe): made before them, removed after. */
export function sharedDir(prefix?: string): { dir: string } {
  const shared = { dir: '' };
  let t: TempDir | undefined;
  beforeAll(() => {
    t = tempDir(prefix);
    shared.dir = t.dir;
  });
  afterAll(() => t?.remove());
  return shared;
}

/** Writes a file of the test's into a folder, and returns its path. */
export function writeIn(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
