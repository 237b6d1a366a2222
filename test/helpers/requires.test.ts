/**
 * Tests that need a program from outside npm skip without it, and the run ends naming it
 * and how to install it; under CI=true they fail instead. Checked on a small test file run
 * by vitest itself, with a PATH that holds node and nothing else.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './temp.js';
import { missingLine, needs, which } from './requires.js';
import { programsFor } from '../docs/reader.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = tempDir('voicectl-requires-');
afterAll(() => dir.remove());

/** A bin folder with only node in it, and one with a fake zsh beside it. */
const bare = join(dir.dir, 'bare');
const withZsh = join(dir.dir, 'with-zsh');
for (const bin of [bare, withZsh]) {
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
}
writeFileSync(join(withZsh, 'zsh'), '#!/bin/sh\nexit 0\n');
chmodSync(join(withZsh, 'zsh'), 0o755);

describe('which', () => {
  it('finds a program on the given PATH only', () => {
    expect(which('zsh', bare)).toBeUndefined();
    expect(which('zsh', `${bare}:${withZsh}`)).toBe(join(withZsh, 'zsh'));
  });
});

describe('what the docs\' commands need', () => {
  it('jq where they pipe into it, faketime where they launch (calling hours are checked on voicectl\'s clock)', () => {
    expect(programsFor(['voicectl agent list', 'voicectl campaign redial X --dry-run'])).toEqual([]);
    expect(programsFor(["voicectl call tail --json | jq -r '.phone_number'"])).toEqual(['jq']);
    expect(programsFor(['voicectl campaign launch X --yes'])).toEqual(['faketime']);
    expect(programsFor(['voicectl campaign create --name N --agent A --csv f.csv \\\n  --launch --yes', 'voicectl x | jq .'])).toEqual(['faketime', 'jq']);
  });
});

describe('needs', () => {
  it('skips with a note naming the missing program, or throws the install line under CI=true', () => {
    const saved = { PATH: process.env.PATH, CI: process.env.CI };
    try {
      process.env.PATH = bare;
      const notes: string[] = [];
      const ctx = { skip: ((note?: string) => void notes.push(String(note))) as never };
      delete process.env.CI;
      needs(ctx, 'zsh', 'jq', 'zsh');
      expect(notes).toEqual(['needs zsh, jq']);
      process.env.CI = 'true';
      expect(() => needs(ctx, 'fish')).toThrow(missingLine('fish'));
      process.env.PATH = withZsh;
      needs(ctx, 'zsh');
      expect(notes).toHaveLength(1);
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.CI === undefined) delete process.env.CI;
      else process.env.CI = saved.CI;
    }
  });
});

describe('a run without the programs', () => {
  const fixture = join(dir.dir, 'needs.fixture.test.ts');
  writeFileSync(fixture, `import { it, expect } from 'vitest';
import { needs } from ${JSON.stringify(join(ROOT, 'test/helpers/requires.ts'))};
it('uses zsh', (ctx) => { needs(ctx, 'zsh'); expect(1).toBe(1); });
it('uses zsh again', (ctx) => { needs(ctx, 'zsh'); expect(1).toBe(1); });
it('uses fish and jq', (ctx) => { needs(ctx, 'fish', 'jq'); expect(1).toBe(1); });
it('needs nothing', () => { expect(1).toBe(1); });
`);
  const config = join(dir.dir, 'vitest.config.mjs');
  writeFileSync(config, `export default { test: { include: [${JSON.stringify(fixture)}], reporters: ['default', 'json', ${JSON.stringify(join(ROOT, 'test/helpers/missing-programs.ts'))}], outputFile: { json: 'report.json' } } };\n`);
  const run = (env: Record<string, string>) =>
    execa(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', config, '--root', dir.dir], {
      reject: false, extendEnv: false, env: { PATH: bare, HOME: dir.dir, NO_COLOR: '1', ...env }, cwd: dir.dir, all: true,
    });

  it.each([
    { title: 'passes, skips what needs them, and ends with one line per program and its install command', env: {} as Record<string, string>, passes: true, done: 'skipped' },
    { title: 'fails under CI=true, with the same lines', env: { CI: 'true' }, passes: false, done: 'failed (CI=true runs them all)' },
  ])('$title', async ({ env, passes, done }) => {
    const r = await run(env);
    if (passes) expect(r.exitCode, r.all).toBe(0);
    else expect(r.exitCode).not.toBe(0);
    expect(r.stdout.trimEnd().split('\n').slice(-3)).toEqual([
      `zsh not found: 2 tests ${done}; install it with: sudo apt-get install zsh`,
      `fish not found: 1 test ${done}; install it with: sudo apt-get install fish`,
      `jq not found: 1 test ${done}; install it with: sudo apt-get install jq`,
    ]);
  }, 60_000);
});
