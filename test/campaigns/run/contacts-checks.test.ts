/**
 * What `campaign run` does with a list's problems, as `campaign create` does: invalid rows
 * stop it before anything is created (exit 2) unless --skip-invalid, which leaves them out
 * and lists them by spreadsheet row; --strict (or the profile's strict setting) makes every
 * warning an error. Every hint that names a command carries the flags that read the list
 * (the default country in effect, the country column, the sheet ...): followed as written,
 * it reports the same bad rows.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumeCommand } from '../../../src/campaigns/run/start.js';
import { testContext } from '../../../src/context-test.js';
import { run } from '../../helpers/run.js';
import { placedCalls, simWorldForFile } from './sim.js';

const w = simWorldForFile('voicectl-run-checks-', { startAt: '2026-01-15T04:00:00Z', timeScale: 20_000 });

const writes = () => w.sandbox.requests.filter((q) => q.method !== 'GET').length;

/**
 * An Indian team's list with a country column under a header voicectl does not find by
 * itself ("Nation"): read with --default-country IN and --country-column Nation, rows 4, 6
 * and 7 are invalid; read without either, the Indian national numbers and the US row with
 * its country are invalid too.
 */
const MIXED = [
  'Name,Phone,Nation',
  'Asha,98765 43210,',
  'John,(646) 555-0143,US',
  'Jane,(646) 555-0199,',
  'Mary,07911 123456,UK',
  'Ravi,12345,',
  'Bob,call 98765 43211,',
  'Meena,+91 98765 43212,IN',
].join('\n') + '\n';
const BAD_ROWS = [4, 6, 7];
const GOOD = ['+919876543210', '+16465550143', '+447911123456', '+919876543212'];

const csv = (name: string, text: string) => {
  const path = join(w.dir, name);
  writeFileSync(path, text);
  return path;
};
const runArgs = (path: string, name: string) => ['campaign', 'run', '--name', name, '--agent', w.agentId, '--csv', path];

/** The command in backquotes in a hint, split into words as a shell splits them. */
function hintCommand(stderr: string, starts: string): string[] {
  const m = new RegExp('`(' + starts + '[^`]*)`').exec(stderr);
  if (!m) throw new Error(`no \`${starts} …\` in:\n${stderr}`);
  const r = spawnSync('bash', ['-c', `set -- ${m[1]}; printf '%s\\0' "$@"`], { encoding: 'utf8' });
  return r.stdout.split('\0').slice(0, -1);
}

/** Rows of an invalid-rows report (`--json`). */
const badRows = (stdout: string) => (JSON.parse(stdout).errors as Array<{ row: number }>).map((e) => e.row);

describe('campaign run: invalid rows', () => {
  it('stop the run before anything is created (exit 2), naming the rows; the hint\'s command, followed as written, finds the same rows', async () => {
    const path = csv('mixed.csv', MIXED);
    const before = writes();
    const r = await w.run([...runArgs(path, 'Mixed'), '--default-country', 'IN', '--country-column', 'Nation', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(writes()).toBe(before);
    expect(existsSync(join(w.dir, 'mixed.run.json'))).toBe(false);
    expect(badRows(r.stdout)).toEqual(BAD_ROWS);
    expect(r.stderr).toContain('3 rows of mixed.csv are invalid, so nothing was sent.');
    expect(r.stderr).toContain('add --skip-invalid to start the run with the other 4 contacts');

    const words = hintCommand(r.stderr, 'voicectl contacts validate');
    expect(words).toEqual(['voicectl', 'contacts', 'validate', path, '--default-country', 'IN', '--country-column', 'Nation', '--errors-out', 'bad-rows.csv']);
    const followed = await run([...words.slice(1), '--json'], { cwd: w.dir });
    expect(followed.exitCode).toBe(2);
    expect(badRows(followed.stdout)).toEqual(BAD_ROWS);
    // What the hint used to say: the same file without the reading flags, a different verdict.
    const bare = await run(['contacts', 'validate', path, '--json']);
    expect(badRows(bare.stdout)).not.toEqual(BAD_ROWS);
  });

  it('the profile\'s default country is written into the hint, so another profile reads the list the same way', async () => {
    const path = csv('profile.csv', MIXED);
    const env = { ...w.env, VOICECTL_CONFIG_DIR: join(w.dir, 'profile-config') };
    expect((await run(['config', 'set', 'default_country', 'IN'], { env })).exitCode).toBe(0);
    const r = await w.run([...runArgs(path, 'Profile'), '--country-column', 'Nation', '--yes'], { env });
    expect(r.exitCode).toBe(2);
    const words = hintCommand(r.stderr, 'voicectl contacts validate');
    expect(words).toContain('--default-country');
    const followed = await run([...words.slice(1), '--json'], { cwd: w.dir });
    expect(badRows(followed.stdout)).toEqual(BAD_ROWS);
  });

  it('--skip-invalid: the run goes ahead with the valid rows, each skipped row listed with its row number; only they are dialed', async () => {
    const path = csv('skip.csv', MIXED);
    const dry = await w.run([...runArgs(path, 'Skip'), '--default-country', 'IN', '--country-column', 'Nation', '--skip-invalid', '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).forecast.contacts).toBe(4);
    expect(dry.stderr).toContain('skipping 3 invalid rows of skip.csv (--skip-invalid):');
    for (const row of BAD_ROWS) expect(dry.stderr).toMatch(new RegExp(`^  row ${row}\\b`, 'm'));
    expect(dry.stderr).toContain('looks like a US/Canada number');

    const before = new Set(placedCalls(w.sandbox).map((c) => c.phone));
    const r = await w.run([...runArgs(path, 'Skip'), '--default-country', 'IN', '--country-column', 'Nation', '--skip-invalid', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).contacts).toEqual({ done: 4 });
    const dialed = placedCalls(w.sandbox).map((c) => c.phone).filter((p) => !before.has(p));
    expect(dialed.sort()).toEqual([...GOOD].sort());
  }, 60_000);

  it('a list with no valid row is refused even with --skip-invalid', async () => {
    const path = csv('none.csv', 'Name,Phone\nRavi,12345\nBob,call me\n');
    const r = await w.run([...runArgs(path, 'None'), '--default-country', 'IN', '--skip-invalid', '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('none.csv has no valid contacts to send.');
  });
});

describe('campaign run --strict', () => {
  const DUPLICATE = 'Name,Phone\nAsha,98765 43210\nRavi,098765 43210\nMeena,98765 43212\n';

  it('a warning is an error (exit 2, nothing sent); without --strict the run goes ahead', async () => {
    const path = csv('dup.csv', DUPLICATE);
    const plain = await w.run([...runArgs(path, 'Dup'), '--default-country', 'IN', '--dry-run', '--json']);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout).forecast.contacts).toBe(2);
    const before = writes();
    const strict = await w.run([...runArgs(path, 'Dup'), '--default-country', 'IN', '--strict', '--yes']);
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain('--strict: dup.csv has a warning, which strict mode treats as errors: 1 duplicate');
    expect(writes()).toBe(before);
    expect(existsSync(join(w.dir, 'dup.run.json'))).toBe(false);
  });

  it('a number in another country\'s style and a missing name each stop it', async () => {
    const styled = await w.run([...runArgs(csv('styled.csv', 'Name,Phone\nAsha,98765 43210\nJohn,01812-345678\n'), 'Styled'), '--default-country', 'IN', '--strict', '--dry-run']);
    expect(styled.exitCode).toBe(2);
    expect(styled.stderr).toContain('written in another country\'s style');
    const unnamed = await w.run([...runArgs(csv('unnamed.csv', 'Name,Phone\nAsha,98765 43210\n,98765 43211\n'), 'Unnamed'), '--default-country', 'IN', '--strict', '--dry-run']);
    expect(unnamed.exitCode).toBe(2);
    expect(unnamed.stderr).toContain('1 contact without a name');
  });

  it('the profile\'s strict setting does the same', async () => {
    const env = { ...w.env, VOICECTL_CONFIG_DIR: join(w.dir, 'strict-config') };
    expect((await run(['config', 'set', 'strict', 'true'], { env })).exitCode).toBe(0);
    const r = await w.run([...runArgs(csv('dup2.csv', DUPLICATE), 'Dup2'), '--default-country', 'IN', '--dry-run'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--strict: dup2.csv has a warning');
  });

  it('goes with a new run only: --resume refuses it', async () => {
    const r = await w.run(['campaign', 'run', '--resume', join(w.dir, 'nothing.run.json'), '--strict']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('drop --strict');
  });
});

describe('the resume command', () => {
  it('carries the service, the profile and the zone the run was shown in', () => {
    const ctx = testContext({ opts: { baseUrl: 'http://127.0.0.1:4010', profile: 'work', tz: 'America/New_York' } });
    expect(resumeCommand(ctx, 'leads.run.json')).toBe('voicectl campaign run --resume leads.run.json --base-url http://127.0.0.1:4010 --profile work --tz America/New_York');
  });
});
