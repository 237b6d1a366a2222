/**
 * Runs voicectl in process with fake streams (the same run() as the binary), so tests
 * can hand it a clock, an abort signal, or a terminal on stderr.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Context } from '../../src/context.js';
import { run } from '../../src/main.js';
import { tempDir as makeTempDir, type TempDir } from '../helpers/temp.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

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

export async function runInProcess(argv: string[], opts: InProcessOptions = {}): Promise<InProcessResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  Object.assign(stderr, { isTTY: opts.stderrTTY ?? false, columns: opts.columns });
  Object.assign(stdout, { isTTY: opts.stdoutTTY ?? false, columns: opts.columns });
  const config = mkdtempSync(join(tmpdir(), 'voicectl-call-'));
  try {
    const ctx = new Context({
      io: { stdin, stdout, stderr },
      env: { FORCE_COLOR: '0', CI: 'true', VOICECTL_CONFIG_DIR: config, ...opts.env },
      now: opts.now,
      signal: opts.signal,
      sleep: opts.sleep ?? (async () => {}),
    });
    const code = await run(argv, ctx);
    return { code, stdout: out, stderr: err };
  } finally {
    rmSync(config, { recursive: true, force: true });
  }
}

export function tempDir(): TempDir {
  return makeTempDir('voicectl-export-');
}
