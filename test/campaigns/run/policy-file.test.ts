/**
 * `campaign run --policy run.yaml`: the file gives the same plan as the flags it stands
 * for, a flag given on the command line wins over it, and a mistake in it (an unknown
 * key, a bad window, a wrong type, a symbolic link) is exit 2 naming the file and the
 * line, before any request reaches the sandbox. `voicectl schema --run-policy` prints its
 * schema; plain `voicectl schema` is unchanged.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaText } from '../../../src/gitops/schema.js';
import { run } from '../../helpers/run.js';
import { simWorldForFile, threeZoneContacts, writeContacts } from './sim.js';

const START = '2026-01-15T02:00:00Z';
/** A fixed clock: two dry runs plan from the same instant. */
const frozen = { now: () => new Date(START) };
const w = simWorldForFile('voicectl-run-policy-file-', { startAt: START });
const contacts = writeContacts(w.dir, 'list.json', threeZoneContacts(30));

function policy(name: string, text: string): string {
  const path = join(w.dir, name);
  writeFileSync(path, text);
  return path;
}

const base = () => ['campaign', 'run', '--name', 'Policy', '--agent', w.agentId, '--contacts', contacts, '--dry-run', '--json'];

const FILE = `# the spring run
calling_hours:
  default: 10:00-20:00
  US: 08:00-21:00
  IN: "09:30-19:00"
wave_size: 20
daily_cap: 70
attempts: 3
retry_after: 3h
retry_on: [no_answer]
deadline: 3d
`;
const FLAGS = ['--calling-hours', '10:00-20:00', '--calling-hours', 'US=08:00-21:00', '--calling-hours', 'IN=09:30-19:00', '--wave-size', '20',
  '--daily-cap', '70', '--attempts', '3', '--retry-after', '3h', '--retry-on', 'no_answer', '--deadline', '3d'];

/** A YAML alias bomb: each of eight levels holds ten aliases of the one before. */
const names = 'abcdefgh';
const LAUGHS = [...names].map((n, i) => `${n}: &${n} [${Array(10).fill(i ? `*${names[i - 1]}` : '"x"').join(',')}]`).join('\n');

async function refused(file: string): Promise<{ exitCode: number; stderr: string; requests: number }> {
  const before = w.sandbox.requests.length;
  const r = await w.run([...base().filter((a) => a !== '--json'), '--policy', file], frozen);
  return { exitCode: r.exitCode, stderr: r.stderr, requests: w.sandbox.requests.length - before };
}

describe('campaign run --policy', () => {
  it('gives the same forecast and wave plan as the equivalent flags', async () => {
    const byFile = await w.run([...base(), '--policy', policy('run.yaml', FILE)], frozen);
    expect(byFile.exitCode, byFile.stderr).toBe(0);
    const byFlags = await w.run([...base(), ...FLAGS], frozen);
    expect(byFlags.exitCode, byFlags.stderr).toBe(0);
    const a = JSON.parse(byFile.stdout);
    const b = JSON.parse(byFlags.stdout);
    expect(a.policy).toMatchObject({
      windows: { default: '10:00-20:00', US: '08:00-21:00', IN: '09:30-19:00' },
      wave_size: 20, daily_cap: 70, attempts: 3, retry_after_ms: 3 * 3_600_000, retry_on: ['no_answer'],
      deadline: new Date(Date.parse(START) + 3 * 86_400_000).toISOString(),
    });
    expect(a.forecast.waves.length).toBeGreaterThan(2);
    expect(a).toEqual(b);
  });

  it('lets a flag win over the file, one country\'s window at a time', async () => {
    const file = policy('run-over.yaml', FILE);
    const r = await w.run([...base(), '--policy', file, '--wave-size', '15', '--calling-hours', 'US=07:00-22:00', '--attempts', '2'], frozen);
    expect(r.exitCode, r.stderr).toBe(0);
    const { policy: p } = JSON.parse(r.stdout);
    expect(p.wave_size).toBe(15);
    expect(p.attempts).toBe(2);
    expect(p.windows).toEqual({ default: '10:00-20:00', US: '07:00-22:00', IN: '09:30-19:00' });
    expect(p.daily_cap).toBe(70);
    expect(p.retry_after_ms).toBe(3 * 3_600_000);
  });

  it('takes calling_hours as a list of the flag\'s values too', async () => {
    const r = await w.run([...base(), '--policy', policy('list.yaml', 'calling_hours: ["10:00-20:00", "GB=11:00-18:00"]\n')], frozen);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).policy.windows).toEqual({ default: '10:00-20:00', GB: '11:00-18:00' });
  });

  it('reads exclude files relative to the policy file, added to --exclude', async () => {
    const list = threeZoneContacts(30);
    mkdirSync(join(w.dir, 'policies'), { recursive: true });
    writeFileSync(join(w.dir, 'policies', 'dnc.txt'), `${list[0]!.phone_number}\n`);
    writeFileSync(join(w.dir, 'more.txt'), `${list[1]!.phone_number}\n`);
    const file = policy(join('policies', 'run.yaml'), 'exclude: [dnc.txt]\n');
    const all = JSON.parse((await w.run(base(), frozen)).stdout).forecast.contacts;
    const r = await w.run([...base(), '--policy', file, '--exclude', join(w.dir, 'more.txt')], frozen);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).forecast.contacts).toBe(all - 2);
  });

  it('asks for attempts when the file sets retries without them, exit 2, no request', async () => {
    const r = await refused(policy('retries.yaml', 'retry_on: [no_answer]\n'));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/retry_on in a --policy file.*attempts/);
    expect(r.requests).toBe(0);
  });

  it.each([
    ['refuses an unknown key with its line and column', 'typo.yaml', 'wave_size: 20\n\nwave_sise: 40\n',
      [/wave_sise: unknown key \(the keys are calling_hours, .*\) \(line 3, column 1\)/]],
    ['refuses a bad window and a wrong type, each with its line', 'bad.yaml', 'calling_hours:\n  default: 09:00-21:00\n  US: 21:00-08:00\nwave_size: many\n',
      [/calling_hours\.US: "21:00-08:00" is not a window of hours.*\(line 3, column 7\)/, /wave_size: must be a whole number of 1 or more, not "many" \(line 4, column 12\)/]],
    ['refuses a YAML syntax error', 'broken.yaml', 'wave_size: 20\ncalling_hours: [09:00-21:00\n', [/line \d+, column \d+/]],
    ['refuses an alias bomb', 'bomb.yaml', `${LAUGHS}\n`, [/billion laughs/]],
  ])('%s, naming the file, exit 2, no request', async (_what, name, text, patterns) => {
    const file = policy(name, text);
    const r = await refused(file);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(file);
    for (const p of patterns) expect(r.stderr).toMatch(p);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.requests).toBe(0);
  });

  it('refuses a policy reached through a symbolic link, exit 2, no request', async () => {
    const target = policy('real.yaml', 'wave_size: 20\n');
    const link = join(w.dir, 'link.yaml');
    symlinkSync(target, link);
    const r = await refused(link);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/symbolic link/);
    expect(r.requests).toBe(0);
  });

  it('cannot be combined with --resume', async () => {
    const r = await w.run(['campaign', 'run', '--resume', join(w.dir, 'x.run.json'), '--policy', policy('r.yaml', 'wave_size: 20\n')], frozen);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--policy');
  });
});

describe('voicectl schema --run-policy', () => {
  it('prints the policy file\'s schema; plain `schema` is unchanged', async () => {
    const plain = await run(['schema']);
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toBe(schemaText());
    const r = await run(['schema', '--run-policy']);
    expect(r.exitCode, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.additionalProperties).toBe(false);
    expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['calling_hours', 'wave_size', 'daily_cap', 'attempts', 'retry_after', 'retry_on', 'deadline', 'exclude']));
  });
});
