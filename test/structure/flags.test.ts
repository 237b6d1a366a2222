/**
 * Flags reach domain code only as types derived from the verb specs: no module outside
 * src/commands declares a type named `…Flags`, and an option renamed in a spec fails to
 * compile where a verb reads it (a fixture: a copy of src/ with options renamed, checked
 * by tsc). A hand-written, all-optional flags type in a domain module would let the
 * renamed flag through, and its value would be dropped without a word.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsFilesUnder, withoutComments } from './source-files.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

/** Declarations of a type, interface, class or enum whose name ends in Flags. */
export function flagsTypes(code: string): string[] {
  return [...withoutComments(code).matchAll(/\b(?:interface|type|class|enum)\s+(\w*Flags)\b/g)].map((m) => m[1]!);
}

describe('flags types', () => {
  it('finds a flags type (the checker itself)', () => {
    expect(flagsTypes('export interface RunFlags extends X {}\ntype HoursFlags = { a?: string };\n// interface OldFlags\nconst flags = 1;')).toEqual(['RunFlags', 'HoursFlags']);
    expect(flagsTypes('export type RunPlan = Pick<RunFlags, "a">; function checkHoursFlags() {}')).toEqual([]);
  });

  it('are declared only under src/commands (each from its verb spec)', () => {
    const outside = tsFilesUnder(SRC)
      .map((f) => relative(SRC, f))
      .filter((f) => !f.startsWith('commands/'))
      .flatMap((f) => flagsTypes(readFileSync(join(SRC, f), 'utf8')).map((name) => `src/${f}: ${name}`));
    expect(outside).toEqual([]);
  });
});

/**
 * Each rename: the spec file, the option line as it stands and as renamed, and where the
 * compiler must then object (the file and the property the verb reads).
 */
const RENAMES = [
  {
    spec: 'commands/campaign/definition.ts',
    from: ".option('--campaign-prompt <text>', 'extra instruction for the agent in every wave')",
    to: ".option('--wave-prompt <text>', 'extra instruction for the agent in every wave')",
    file: 'src/commands/campaign/plans.ts',
    property: 'campaignPrompt',
  },
  {
    spec: 'commands/campaign/definition.ts',
    from: ".option('--wait-for-calling-hours',",
    to: ".option('--wait-for-hours',",
    file: 'src/commands/campaign/plans.ts',
    property: 'waitForCallingHours',
  },
  {
    spec: 'commands/campaign/definition.ts',
    from: ".option('--exclude-called-within <span>',",
    to: ".option('--exclude-recent <span>',",
    file: 'src/commands/campaign/plans.ts',
    property: 'excludeCalledWithin',
  },
  {
    spec: 'commands/listen/definition.ts',
    from: ".option('--secret-file <file>', 'read the signing secret from FILE')",
    to: ".option('--secret-path <file>', 'read the signing secret from FILE')",
    file: 'src/commands/listen/listen.ts',
    property: 'secretFile',
  },
] as const;

/** The verbs whose flags reach the domain modules: the compiled roots of the fixture. */
const ROOTS = ['commands/campaign/run.ts', 'commands/campaign/create.ts', 'commands/campaign/redial.ts', 'commands/campaign/launch.ts', 'commands/listen/listen.ts', 'commands/trigger/trigger.ts', 'commands/events/reconcile.ts'];

/** A copy of src/ (with node_modules linked) that tsc checks from ROOTS and the type shims; returns its errors. */
function compile(dir: string): string[] {
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    extends: join(ROOT, 'tsconfig.json'),
    compilerOptions: { noEmit: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
    include: ['src/types'],
    files: ROOTS.map((f) => `src/${f}`),
  }));
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
  return `${tsc.stdout}${tsc.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
}

describe('an option renamed in a verb spec', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'voicectl-flags-'));
    cpSync(SRC, join(dir, 'src'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), readFileSync(join(ROOT, 'package.json')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles as it stands (the fixture itself)', () => {
    expect(compile(dir)).toEqual([]);
  }, 180_000);

  it('fails to compile where the verb reads it', () => {
    for (const r of RENAMES) {
      const path = join(dir, 'src', r.spec);
      const text = readFileSync(path, 'utf8');
      expect(text.split(r.from).length, `${r.spec} holds ${r.from} once`).toBe(2);
      writeFileSync(path, text.replace(r.from, r.to));
    }
    const errors = compile(dir);
    for (const r of RENAMES) {
      expect(errors.filter((e) => e.startsWith(`${r.file}(`) && e.includes(`'${r.property}'`)), `${r.from} renamed`).not.toEqual([]);
    }
  }, 180_000);
});
