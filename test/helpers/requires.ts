/**
 * Programs from outside npm that some tests drive for real: Chromium (the HTML report),
 * zsh and fish (the completion scripts), faketime (the docs' pinned clock) and jq (which
 * the docs' and the help's examples pipe into).
 *
 * A test that needs one calls `needs(ctx, 'zsh')` first. When the program is on the PATH
 * the test runs; when it is not, the test is skipped, and the missing-programs reporter
 * ends the run with one line per program naming it and the command that installs it.
 * Under CI=true a missing program fails the test instead, with that same line, so CI keeps
 * every test.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { TestContext } from 'vitest';

export const PROGRAMS = {
  chromium: { commands: ['chromium', 'chromium-browser'], install: 'sudo apt-get install chromium' },
  zsh: { commands: ['zsh'], install: 'sudo apt-get install zsh' },
  fish: { commands: ['fish'], install: 'sudo apt-get install fish' },
  faketime: { commands: ['faketime'], install: 'sudo apt-get install faketime' },
  jq: { commands: ['jq'], install: 'sudo apt-get install jq' },
} as const;

export type Program = keyof typeof PROGRAMS;

/** What a skipped test's note says: `needs zsh` (the reporter counts these). */
export const SKIP_NOTE = /^needs ([\w, ]+)$/;
/** The first words of the error a missing program raises under CI=true. */
export const MISSING = /^([\w-]+) not found; install it with: /;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The program's path on this process's PATH, or undefined. */
export function which(program: Program, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    for (const name of PROGRAMS[program].commands) {
      const candidate = join(dir, name);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** libfaketime's preload library, where the faketime package puts it. */
export function libfaketime(): string | undefined {
  for (const dir of ['/usr/lib/x86_64-linux-gnu/faketime', '/usr/lib/aarch64-linux-gnu/faketime', '/usr/lib/faketime', '/usr/local/lib/faketime', '/opt/homebrew/lib/faketime']) {
    const p = join(dir, 'libfaketime.so.1');
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** Whether the program is there: on the PATH (and, for faketime, its library too). */
export function has(program: Program): boolean {
  if (!which(program)) return false;
  return program !== 'faketime' || libfaketime() !== undefined;
}

export function missingLine(program: Program): string {
  return `${program} not found; install it with: ${PROGRAMS[program].install}`;
}

/** Skips the test when a program is missing (fails it under CI=true), naming the program. */
export function needs(ctx: Pick<TestContext, 'skip'>, ...programs: Program[]): void {
  const missing = [...new Set(programs)].filter((p) => !has(p));
  if (missing.length === 0) return;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error(`${missing.map(missingLine).join('\n')}\n(CI=true: a missing program fails the run instead of skipping its tests)`);
  }
  ctx.skip(`needs ${missing.join(', ')}`);
}
