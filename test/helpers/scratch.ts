/**
 * What a test makes and must undo (throwaway folders and files, servers), undone after
 * each test, the last made first. Call `scratch()` once at the top of a test file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { tempDir } from './temp.js';

export interface Scratch {
  /** Runs `undo` after the current test. */
  defer(undo: () => unknown): void;
  /** A throwaway folder, removed after the test. */
  dir(): string;
  /** A file named `name` holding `content`, alone in a throwaway folder; its path. */
  file(name: string, content: string | Uint8Array): string;
  /** Closes what it is given (a server, say) after the test, and hands it back. */
  closing<T extends { close(): unknown }>(thing: T | Promise<T>): Promise<T>;
}

export function scratch(prefix = 'voicectl-test-'): Scratch {
  const undo: Array<() => unknown> = [];
  afterEach(async () => {
    for (const f of undo.splice(0).reverse()) await f();
  });
  const self: Scratch = {
    defer: (f) => void undo.push(f),
    dir() {
      const t = tempDir(prefix);
      undo.push(t.remove);
      return t.dir;
    },
    file(name, content) {
      const path = join(self.dir(), name);
      writeFileSync(path, content);
      return path;
    },
    async closing(thing) {
      const t = await thing;
      undo.push(() => t.close());
      return t;
    },
  };
  return self;
}
