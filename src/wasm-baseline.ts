/**
 * undici parses HTTP with llhttp compiled to WebAssembly, which V8 compiles twice: at once
 * with its baseline compiler (Liftoff), then again optimized (TurboFan) on a background
 * thread, and Node does not exit before that second compile ends. That added 150–250 ms
 * to every short command here (`voice list`: 0.61 s against 0.36 s). Baseline code parses
 * the responses voicectl reads well enough (see the export figures in docs/), so V8 is
 * asked for that alone, only on the V8 versions of the Node releases voicectl supports
 * (20, 22, 24: V8 11 to 13), which have the flag: V8 prints an error for a flag it does
 * not know.
 *
 * The start path sets it before compiling the program, because V8 accepts a code cache
 * only under the flags it was made with (scripts/code-cache.cjs sets it alike).
 */
import { setFlagsFromString } from 'node:v8';

let done = false;

export function preferBaselineWasm(): void {
  if (done) return;
  done = true;
  const v8Major = Number(process.versions.v8.split('.')[0]);
  if (v8Major >= 11 && v8Major <= 13) setFlagsFromString('--liftoff-only');
}
