/**
 * Runs `voicectl watch` in process (helpers/run.ts) on a terminal or a pipe, with a fake
 * clock: ctx.sleep advances ctx.now() at once, so a watch of many polls takes
 * milliseconds and no test depends on real time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../../src/context.js';
import { InterruptedError } from '../../src/errors.js';
import { runInProcess } from '../helpers/run.js';

export interface WatchRun {
  code: number;
  stdout: string;
  stderr: string;
  sleeps: number[];
}

export interface WatchRunOptions {
  env?: Env;
  /** stdout (and stderr) are terminals of this size. */
  tty?: { columns: number; rows: number };
  /** Ctrl-C during this sleep (1-based). */
  interruptAtSleep?: number;
  /** Real clock and real sleeps (against the sandbox, whose own clock runs in real time). */
  realTime?: boolean;
}

export async function runWatchCli(argv: string[], opts: WatchRunOptions = {}): Promise<WatchRun> {
  const configDir = mkdtempSync(join(tmpdir(), 'voicectl-watch-'));
  const interrupt = new AbortController();
  let clock = Date.parse('2025-03-01T10:00:00Z');
  const sleeps: number[] = [];
  const fakeTime = opts.realTime ? { realTime: true } : {
    now: () => new Date(clock),
    sleep: async (ms: number, signal?: AbortSignal) => {
      sleeps.push(ms);
      if (sleeps.length === opts.interruptAtSleep) interrupt.abort(new InterruptedError());
      if (signal?.aborted) throw signal.reason;
      clock += ms;
      await new Promise((r) => setImmediate(r));
    },
  };
  try {
    const r = await runInProcess(argv, {
      env: { VOICECTL_CONFIG_DIR: configDir, HOME: configDir, ...opts.env },
      tty: opts.tty ? { stdout: true, stderr: true, columns: opts.tty.columns, rows: opts.tty.rows } : undefined,
      random: () => 0.5,
      signal: interrupt.signal,
      ...fakeTime,
    });
    return { ...r, sleeps };
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
}

/** What a terminal would show: the text with cursor movement and colours applied, roughly. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

/**
 * Replays the output on a tiny screen model (lines, cursor up, clear line/below), so a
 * test can assert on the final screen rather than on every frame ever drawn.
 */
export function finalScreen(raw: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  const re = /\x1b\[([0-9;?]*)([A-Za-z])|\r|\n|[^\x1b\r\n]+/g;
  for (const m of raw.matchAll(re)) {
    const tok = m[0];
    if (m[2]) {
      const n = Number(m[1]) || 1;
      if (m[2] === 'A') row = Math.max(0, row - n);
      else if (m[2] === 'K') lines[row] = lines[row]!.slice(0, col);
      else if (m[2] === 'J') {
        lines.length = row + 1;
        lines[row] = lines[row]!.slice(0, col);
      }
      continue;
    }
    if (tok === '\r') col = 0;
    else if (tok === '\n') {
      row++;
      col = 0;
      if (lines.length <= row) lines.push('');
    } else {
      const line = lines[row]!.padEnd(col);
      lines[row] = line.slice(0, col) + tok + line.slice(col + tok.length);
      col += tok.length;
    }
  }
  return lines;
}
