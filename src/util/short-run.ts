/**
 * A short job run without V8's optimizing compiler (TurboFan). V8 optimizes a function
 * once it has run for a while, compiling it again on a background thread; on a job of a
 * second or less, those compiles cost more than the faster code wins back, mostly in fresh
 * memory for the compiler (on the machine measured, a first touch of a page costs about
 * 15 µs). `contacts validate` of 10,000 rows: 467 against 433 ms on Node 20, 434 against
 * 381 ms on Node 22, within the noise on Node 24; 50,000 rows 837 against 741 ms; but
 * 1,000,000 rows (which the engine worker reads, never under this) 6.1 against 8.2 s.
 * docs/performance.md has the runs.
 *
 * V8's flags are the process's: the optimizing compiler is off while at least one such job
 * runs (workers started meanwhile included) and on again after the last. Functions already
 * optimized keep their code. Nothing changes on a V8 other than those of Node 20, 22 and 24
 * (V8 11 to 13, which name the flag so), nor when the person chose V8's compilers
 * themselves (--jitless, --no-opt, … on the command line or in NODE_OPTIONS).
 *
 * Afterwards V8's flags are as they were, checked by V8's hash of them, which it writes
 * into a code cache and compares at the next start: the program's cache, written after a
 * run, must fit the next one (src/code-cache.ts writes one only under the flags it was
 * loaded with). On Node 22, turning Turbofan off also turns off on-stack replacement from
 * Maglev code, which turning it on again does not undo; that is put back too. Should the
 * flags still differ (another V8), the compiler is left alone for the rest of the process.
 */
import { cachedDataVersionTag, setFlagsFromString } from 'node:v8';

const OWN_CHOICE = /--(no-)?(opt|turbofan|maglev|jitless|sparkplug|osr-from-maglev)\b/;

const v8Major = Number(process.versions.v8.split('.')[0]);
let applies: boolean | undefined;
let running = 0;
/** V8's hash of its flags before the compiler was turned off. */
let flagsBefore = 0;

/** Whether Node's own arguments or NODE_OPTIONS choose V8's compilers already. Exported for tests. */
export const choosesCompilers = (execArgv: readonly string[], nodeOptions: string | undefined): boolean =>
  [...execArgv, nodeOptions ?? ''].some((arg) => OWN_CHOICE.test(arg));

function appliesHere(): boolean {
  if (applies === undefined) {
    applies = v8Major >= 11 && v8Major <= 13 && !choosesCompilers(process.execArgv, process.env.NODE_OPTIONS);
  }
  return applies;
}

export async function withoutOptimizingCompiler<T>(work: () => Promise<T>): Promise<T> {
  if (!appliesHere()) return work();
  if (running++ === 0) {
    flagsBefore = cachedDataVersionTag();
    setFlagsFromString('--no-turbofan');
  }
  try {
    return await work();
  } finally {
    if (--running === 0) restore();
  }
}

function restore(): void {
  setFlagsFromString('--turbofan');
  if (cachedDataVersionTag() !== flagsBefore && v8Major === 12) setFlagsFromString('--osr-from-maglev');
  if (cachedDataVersionTag() !== flagsBefore) applies = false;
}
