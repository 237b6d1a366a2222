/** A throwaway folder for one test, and how to remove it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

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
