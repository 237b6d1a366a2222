/**
 * The built file of a worker thread: beside this code when compiled file by file, or in
 * dist/contacts/ when this code sits in a bundle chunk (scripts/build.js). Absent when
 * running from the TypeScript sources (tests): then everything runs on the calling thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function workerFile(name: 'phone-worker' | 'engine-worker'): string | undefined {
  for (const rel of [`./${name}.js`, `../contacts/${name}.js`, `./contacts/${name}.js`]) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  return undefined;
}
