/**
 * Loading the start path's CommonJS files (dist/help.cjs, dist/main.cjs) from V8's code
 * cache: compiling is most of what starting costs. The build writes a cache for the Node
 * that built it, beside each file and named by V8 version. Any other Node (a user's 22 or
 * 24 when the package was built on 20) gets its own, written after its first run under
 * ~/.cache/voicectl/code (XDG_CACHE_HOME), named by the file's size and time and the V8
 * version, so a cache is never used for another build. It is written after the command
 * has run, so the functions a run needs are compiled into it. A cache that does not fit
 * (other V8 flags) is ignored and the file compiled as usual; a cache is never required.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';
import { writeFileAtomicSync } from './util/atomic-file.js';

export interface Loaded<T> {
  exports: T;
  script: Script;
  /** undefined: no cache was found; true: one was found and V8 refused it. */
  cacheRejected: boolean | undefined;
  /**
   * Writes this Node's cache after a run, when there was none or it did not fit, and V8's
   * flags are as they were when the file was loaded: a cache made under other flags would
   * not fit the next start, and would be written again at every run.
   */
  save(): void;
}

/** The cache the build writes beside a file, for the V8 it ran on. */
export const buildCacheFile = (file: string, v8 = process.versions.v8) => `${file}.${v8}.cache`;

function userCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'voicectl', 'code');
}

function userCacheFile(file: string, size: number, mtimeMs: number): string {
  return join(userCacheDir(), `${basename(file)}-${size}-${Math.trunc(mtimeMs)}-${process.versions.v8}.cache`);
}

/** Reads a cache only from a folder of this user's that no one else can write to. */
function readPrivate(path: string): Buffer | undefined {
  try {
    const dir = statSync(join(path, '..'));
    if (typeof process.getuid === 'function' && (dir.uid !== process.getuid() || (dir.mode & 0o022) !== 0)) return undefined;
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * import() for the built file: in functions V8 restores from a code cache, import() has no
 * loader to call, so the build rewrites the program's import("package") calls to this.
 */
const importPackage = (specifier: string): Promise<unknown> => import(specifier);

/** Loads a built CommonJS file as require() would, compiled from a code cache when one fits. */
export function load<T>(file: string, options: { userCache?: boolean } = {}): Loaded<T> {
  // The build writes these files as ASCII (scripts/build.js), so latin1 reads them exactly,
  // as a one-byte string: half the memory of a two-byte one, and faster to read.
  const source = readFileSync(file, 'latin1');
  let cachedData: Buffer | undefined;
  let userFile: string | undefined;
  try {
    cachedData = readFileSync(buildCacheFile(file));
  } catch {
    if (options.userCache !== false) {
      const st = statSync(file);
      userFile = userCacheFile(file, st.size, st.mtimeMs);
      cachedData = readPrivate(userFile);
    }
  }
  // The build wrote the file inside its module function (src/module-wrapper.ts).
  const script = new Script(source, { filename: file, cachedData });
  // V8 hashes its flags into a cache and refuses one made under other flags; a run can
  // change them (src/util/short-run.ts puts them back, and checks).
  const flags = cachedDataVersionTag();
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, file, join(file, '..'), importPackage);
  const cacheRejected = cachedData ? script.cachedDataRejected : undefined;
  return {
    exports: module.exports,
    script,
    cacheRejected,
    save() {
      if (!userFile || cacheRejected === false || cachedDataVersionTag() !== flags) return;
      try {
        writeUserCache(userFile, script.createCachedData());
      } catch {
        // a cache is an optimisation: a read-only home or a full disk is not an error
      }
    },
  };
}

function writeUserCache(path: string, data: Buffer): void {
  const dir = userCacheDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(path, data, { mode: 0o600 });
  // Caches of earlier builds of the same file, for this V8, are of no further use.
  const name = basename(path);
  const [prefix] = name.split('-');
  const suffix = `-${process.versions.v8}.cache`;
  for (const other of readdirSync(dir)) {
    if (other !== name && other.startsWith(`${prefix}-`) && other.endsWith(suffix)) rmSync(join(dir, other), { force: true });
  }
}
