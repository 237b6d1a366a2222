/**
 * Where a run's guardrail settings come from: the breaker's mode and thresholds and the
 * baseline from the policy file, the rate card from --rate-card, the policy file or the
 * profile (`voicectl config set rate_card FILE`); a flag wins over the file, the file over
 * the profile. A bad value is exit 2 naming the file and the line, before any request.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simWorldForFile, writeContacts } from './sim.js';

const START = '2026-01-15T04:00:00Z';
const frozen = { now: () => new Date(START) };
const w = simWorldForFile('voicectl-run-guard-settings-', { startAt: START });
const india = Array.from({ length: 10 }, (_, i) => ({ phone_number: `+9198765${String(20_000 + i)}`, name: `Lead ${i}` }));
const us = Array.from({ length: 4 }, (_, i) => ({ phone_number: `+1212555${String(3000 + i)}`, name: `NY ${i}` }));
const contacts = writeContacts(w.dir, 'leads.json', [...india, ...us]);

function file(name: string, text: string): string {
  const path = join(w.dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const INR = 'currency: INR\nrates:\n  IN: {per_minute: 1.20, connection: 0.10}\n';
const USD = 'currency: USD\nrates:\n  US: {per_minute: 0.09}\n  IN: {per_minute: 0.02}\n';
const EUR = 'currency: EUR\nrates:\n  IN: {per_minute: 0.015}\n';

const base = () => ['campaign', 'run', '--name', 'Settings', '--agent', w.agentId, '--contacts', contacts, '--dry-run', '--json'];

/** A config folder of its own, so a profile's rate_card stays in the tests that set it. */
function profileEnv(name: string): Record<string, string> {
  return { ...w.env, VOICECTL_CONFIG_DIR: join(w.dir, name) };
}

async function plan(args: string[], env?: Record<string, string>) {
  const r = await w.run([...base(), ...args], env ? { ...frozen, env } : frozen);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { guardrails: { breaker: Record<string, unknown>; baseline: { connect_rate: number; source: string } | null; rate_card: { source: string; currency: string } | null }; forecast: { cost?: { currency: string; unpriced: Record<string, number> } } };
}

async function refused(args: string[], env?: Record<string, string>) {
  const before = w.sandbox.requests.length;
  const r = await w.run([...base().filter((a) => a !== '--json'), ...args], env ? { ...frozen, env } : frozen);
  return { ...r, requests: w.sandbox.requests.length - before };
}

describe('the breaker in the policy file', () => {
  it('takes the mode, the baseline and the thresholds from the file, the rest at their defaults', async () => {
    const p = file('breaker.yaml', 'wave_size: 5\nbreaker:\n  mode: warn\n  baseline_connect_rate: 0.52\n  connect_drop: 0.4\n  threshold: 9\n');
    const j = await plan(['--policy', p]);
    expect(j.guardrails.breaker).toEqual({ mode: 'warn', connect_drop: 0.4, failed_factor: 2, failed_floor: 0.1, threshold: 9, learn_dials: 200 });
    expect(j.guardrails.baseline).toMatchObject({ connect_rate: 0.52, source: 'flag' });
    const human = await w.run([...base().filter((a) => a !== '--json'), '--policy', p], frozen);
    // The forecast wraps at 80 columns off a terminal: read it as one line.
    expect(human.stderr.replace(/\n\s+/g, ' ')).toMatch(/Answer-rate breaker: warns if connects collapse or failures rise, against a connect rate of 52% set by baseline_connect_rate in .*breaker\.yaml; connect_drop 0\.4, threshold 9\./);
  });

  it('takes a bare mode, and `off` as the word, not YAML 1.1\'s false', async () => {
    const j = await plan(['--policy', file('off.yaml', 'breaker: off\n')]);
    expect(j.guardrails.breaker.mode).toBe('off');
  });

  it('lets --breaker and --baseline-connect-rate win over the file; the file\'s thresholds stay', async () => {
    const p = file('over.yaml', 'breaker:\n  mode: warn\n  baseline_connect_rate: 0.52\n  threshold: 16\n');
    const j = await plan(['--policy', p, '--breaker', 'pause', '--baseline-connect-rate', '61%']);
    expect(j.guardrails.breaker).toMatchObject({ mode: 'pause', threshold: 16 });
    expect(j.guardrails.baseline!.connect_rate).toBeCloseTo(0.61);
  });

  it('refuses --breaker with --resume: a resumed run keeps the breaker it started with', async () => {
    const r = await w.run(['campaign', 'run', '--resume', join(w.dir, 'none.run.json'), '--breaker', 'off'], frozen);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('drop --breaker');
  });

  it('defaults to pause with no flag and no file', async () => {
    const j = await plan([]);
    expect(j.guardrails.breaker).toMatchObject({ mode: 'pause', threshold: 12, connect_drop: 0.3 });
    expect(j.guardrails.rate_card).toBeNull();
  });

  it.each([
    ['a mode it does not know', 'mode.yaml', 'wave_size: 5\nbreaker: sometimes\n', /breaker: must be one of off, warn, pause, not "sometimes" \(line 2, column 10\)/],
    ['an unknown key under breaker', 'key.yaml', 'breaker:\n  mode: pause\n  treshold: 9\n', /breaker\.treshold: unknown key \(the keys of breaker are mode, baseline_connect_rate, connect_drop, .*\) \(line 3, column 3\)/],
    ['a threshold out of bounds', 'low.yaml', 'breaker:\n  threshold: 0.5\n', /breaker\.threshold: must be the evidence in nats at which the breaker trips, from 2 to 50 .*not 0\.5 \(line 2, column 14\)/],
    ['a drop that is not a share', 'drop.yaml', 'breaker:\n  connect_drop: 30%\n', /breaker\.connect_drop: must be a share above 0 and below 1 .*not "30%" \(line 2, column 17\)/],
    ['learn_dials that is not whole', 'learn.yaml', 'breaker:\n  learn_dials: 150.5\n', /breaker\.learn_dials: must be a whole number of dials/],
    ['a baseline above 1', 'base.yaml', 'breaker:\n  baseline_connect_rate: 52\n', /breaker\.baseline_connect_rate: must be a share above 0 and at most 1, such as 0\.52, not 52 \(line 2, column 26\)/],
    ['a rate_card that is not a path', 'card.yaml', 'rate_card: [a, b]\n', /rate_card: must be the path of a rate card file .*not a list \(line 1, column 12\)/],
  ])('refuses %s: exit 2, the file and its line, no request', async (_what, name, text, pattern) => {
    const p = file(name, text);
    const r = await refused(['--policy', p]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${p} is not a valid run policy`);
    expect(r.stderr).toMatch(pattern);
    expect(r.requests).toBe(0);
  });
});

describe('the rate card: --rate-card, the policy file, the profile', () => {
  it('reads rate_card relative to the policy file and prices the forecast with it', async () => {
    file('cards/inr.yaml', INR);
    const p = file('cards/run.yaml', 'wave_size: 5\nrate_card: inr.yaml\n');
    const j = await plan(['--policy', p]);
    expect(j.guardrails.rate_card).toEqual({ source: `inr.yaml (rate_card in ${p}, line 2)`, currency: 'INR', countries: ['IN'] });
    expect(j.forecast.cost!.currency).toBe('INR');
    expect(j.forecast.cost!.unpriced).toEqual({ US: 4 });
  });

  it('uses the profile\'s rate_card when neither the flag nor the file names one; the file wins over the profile, the flag over both', async () => {
    const env = profileEnv('config-card');
    const usd = file('usd.yaml', USD);
    const set = await w.run(['config', 'set', 'rate_card', usd], { env });
    expect(set.exitCode, set.stderr).toBe(0);
    const got = await w.run(['config', 'get', 'rate_card'], { env });
    expect(got.stdout.trim()).toBe(usd);

    const fromProfile = await plan([], env);
    expect(fromProfile.guardrails.rate_card).toMatchObject({ source: `${usd} (the profile's rate_card)`, currency: 'USD' });
    expect(fromProfile.forecast.cost!.unpriced).toEqual({});

    file('cards/inr.yaml', INR);
    const fromFile = await plan(['--policy', file('cards/with-card.yaml', 'rate_card: inr.yaml\n')], env);
    expect(fromFile.guardrails.rate_card!.currency).toBe('INR');

    const fromFlag = await plan(['--policy', join(w.dir, 'cards/with-card.yaml'), '--rate-card', file('eur.yaml', EUR)], env);
    expect(fromFlag.guardrails.rate_card).toMatchObject({ source: `--rate-card ${join(w.dir, 'eur.yaml')}`, currency: 'EUR' });
  });

  it('checks a rate card when the profile is given it, and stores its absolute path', async () => {
    const env = profileEnv('config-bad');
    const bad = file('bad-card.yaml', 'currency: RUPEES\nrates: {IN: {per_minute: 1}}\n');
    const r = await w.run(['config', 'set', 'rate_card', bad], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/bad-card\.yaml: currency must be an ISO 4217 code/);
    const missing = await w.run(['config', 'set', 'rate_card', join(w.dir, 'nowhere.yaml')], { env });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/nowhere\.yaml: no such file/);
    const list = await w.run(['config', 'get', 'rate_card'], { env });
    expect(list.stdout.trim()).toBe('');
  });

  it('refuses a profile rate card that has gone bad since, naming the setting: exit 2, no request', async () => {
    const env = profileEnv('config-gone');
    const card = file('soon-bad.yaml', INR);
    expect((await w.run(['config', 'set', 'rate_card', card], { env })).exitCode).toBe(0);
    writeFileSync(card, 'currency: INR\nrates: {}\n');
    const r = await refused([], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/soon-bad\.yaml \(the profile's rate_card\): rates is empty/);
    expect(r.stderr).toMatch(/voicectl config set rate_card FILE/);
    expect(r.requests).toBe(0);
  });

  it('refuses a broken rate card named by the policy file, naming both files and the line', async () => {
    file('cards/broken.yaml', 'currency: INR\nrates:\n  India: {per_minute: 1}\n');
    const p = file('cards/run-broken.yaml', 'wave_size: 5\n\nrate_card: broken.yaml\n');
    const r = await refused(['--policy', p]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`broken.yaml (rate_card in ${p}, line 3): rates: "India" is not a two-letter country code`);
    expect(r.requests).toBe(0);
  });
});
