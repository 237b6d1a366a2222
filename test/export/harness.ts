/**
 * The call and export tests' way to run voicectl in process: helpers/run.ts with CI=true
 * and terminals named per stream.
 */
import { runInProcess as run, type InProcessResult } from '../helpers/run.js';
import { tempDir as makeTempDir, type TempDir } from '../helpers/temp.js';

export type { InProcessResult };

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  now?: () => Date;
  /** Instead of instant sleeps: a test clock can advance here. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  stderrTTY?: boolean;
  stdoutTTY?: boolean;
  columns?: number;
}

export function runInProcess(argv: string[], opts: InProcessOptions = {}): Promise<InProcessResult> {
  const terminal = opts.stdoutTTY || opts.stderrTTY || opts.columns !== undefined
    ? { stdout: opts.stdoutTTY ?? false, stderr: opts.stderrTTY ?? false, columns: opts.columns }
    : undefined;
  return run(argv, { env: { CI: 'true', ...opts.env }, now: opts.now, sleep: opts.sleep, signal: opts.signal, tty: terminal });
}

export function tempDir(): TempDir {
  return makeTempDir('voicectl-export-');
}
