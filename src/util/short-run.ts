/**
 * A short job (a second or two) run as V8 suits it best: without its optimizing compiler
 * (TurboFan), and with its young generation kept at its starting size. On the machine
 * measured, a first touch of a page of memory costs about 15 µs, and both are mostly
 * fresh memory.
 *
 * - TurboFan optimizes a function once it has run for a while, compiling it again on a
 *   background thread; on a job of a second or less, those compiles cost more than the
 *   faster code wins back. `contacts validate` of 10,000 rows: 467 against 433 ms on Node
 *   20, 434 against 381 ms on Node 22, within the noise on Node 24; 50,000 rows 837
 *   against 741 ms; but 1,000,000 rows (which the engine worker reads, never under this)
 *   6.1 against 8.2 s.
 * - V8 doubles its young generation (1 MB to start) whenever much of it survives a
 *   collection, as the program's own objects do while it starts, and reaches 8 MB during a
 *   10,000-row check: 6 MB of fresh pages, touched once. Kept at 1 MB (a growth factor of
 *   1), the same check collects 27 times instead of 10 and touches 900 fewer pages: 345
 *   against 365 ms on Node 20, 322 against 340 on 22, 297 against 326 on 24; 50,000 and
 *   85,000 rows within the noise.
 *
 * docs/performance.md has the runs.
 *
 * V8's flags are the process's: they are set while at least one such job runs (workers
 * started meanwhile included) and put back after the last. Functions already optimized
 * keep their code. Nothing changes on a V8 other than those of Node 20, 22 and 24 (V8 11
 * to 13, which name the flags so), nor what the person chose themselves: V8's compilers
 * (--jitless, --no-opt, …) or its young generation (--max-semi-space-size, …), on the
 * command line or in NODE_OPTIONS.
 *
 * Afterwards V8's flags are as they were, checked by V8's hash of them, which it writes
 * into a code cache and compares at the next start: the program's cache, written after a
 * run, must fit the next one (src/code-cache.ts writes one only under the flags it was
 * loaded with). On Node 22, turning Turbofan off also turns off on-stack replacement from
 * Maglev code, which turning it on again does not undo; that is put back too. Should the
 * flags still differ (another V8), they are left alone for the rest of the process.
 */
import { cachedDataVersionTag, setFlagsFromString } from 'node:v8';

const OWN_COMPILERS = /--(no-)?(opt|turbofan|maglev|jitless|sparkplug|osr-from-maglev)\b/;
const OWN_YOUNG_GENERATION = /--(max-|min-)?semi-space-/;
/** V8's own growth factor of the young generation (11 to 13), to which it is put back. */
const V8_GROWTH_FACTOR = 2;

const v8Major = Number(process.versions.v8.split('.')[0]);
let compilers: boolean | undefined;
let youngGeneration: boolean | undefined;
let running = 0;
/** V8's hash of its flags before the job's were set. */
let flagsBefore = 0;

/** Node's own arguments and NODE_OPTIONS, with V8's "_" in flag names read as "-". */
const ownArgs = (execArgv: readonly string[], nodeOptions: string | undefined) => [...execArgv, nodeOptions ?? ''].map((arg) => arg.replaceAll('_', '-'));

/** Whether Node's own arguments or NODE_OPTIONS choose V8's compilers already. Exported for tests. */
export const choosesCompilers = (execArgv: readonly string[], nodeOptions: string | undefined): boolean =>
  ownArgs(execArgv, nodeOptions).some((arg) => OWN_COMPILERS.test(arg));

/** Whether Node's own arguments or NODE_OPTIONS size V8's young generation already. Exported for tests. */
export const sizesYoungGeneration = (execArgv: readonly string[], nodeOptions: string | undefined): boolean =>
  ownArgs(execArgv, nodeOptions).some((arg) => OWN_YOUNG_GENERATION.test(arg));

function decide(): void {
  if (compilers !== undefined) return;
  const known = v8Major >= 11 && v8Major <= 13;
  compilers = known && !choosesCompilers(process.execArgv, process.env.NODE_OPTIONS);
  youngGeneration = known && !sizesYoungGeneration(process.execArgv, process.env.NODE_OPTIONS);
}

export async function asShortJob<T>(work: () => Promise<T>): Promise<T> {
  decide();
  if (!compilers && !youngGeneration) return work();
  if (running++ === 0) {
    flagsBefore = cachedDataVersionTag();
    if (compilers) setFlagsFromString('--no-turbofan');
    if (youngGeneration) setFlagsFromString('--semi-space-growth-factor=1');
  }
  try {
    return await work();
  } finally {
    if (--running === 0) restore();
  }
}

function restore(): void {
  if (compilers) setFlagsFromString('--turbofan');
  if (youngGeneration) setFlagsFromString(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
  if (cachedDataVersionTag() !== flagsBefore && v8Major === 12 && compilers) setFlagsFromString('--osr-from-maglev');
  if (cachedDataVersionTag() !== flagsBefore) compilers = youngGeneration = false;
}
