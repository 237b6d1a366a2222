/** A throwaway folder for one test, and how to remove it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  dir: string;
  remove(): void;
}

export function tempDir(prefix = 'voicectl-test-'): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
