/**
 * The parts of chrono-node voicectl uses, from one module. The build makes this module one
 * file (dist/chrono.cjs), loaded from a code cache when a command first reads a callback
 * time, because the package as published is some 270 files: loading them was ~35 ms of a
 * `campaign followups`, and its first readings as much again (docs/performance.md).
 */
export { Chrono, configuration } from 'chrono-node/en';
export type { ParsedResult } from 'chrono-node/en';
