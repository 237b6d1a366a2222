/** The messages between the main thread (remote.ts) and the contacts engine's worker (engine-worker.ts). */
import type { ValidateOptions } from './options.js';
import type { ValidationResult } from './report.js';

export interface EngineInput {
  path: string;
  options: Omit<ValidateOptions, 'onProgress' | 'signal' | 'workers'>;
  helpers: number;
}

export type EngineMessage =
  | { type: 'progress'; rows: number }
  | { type: 'done'; result: ValidationResult }
  | { type: 'error'; kind: 'usage' | 'failure' | 'other'; message: string; hint?: string };
