/**
 * `voicectl doctor`: the built binary against the sandbox (keys with and without scopes)
 * and against a hand-made server whose clock is ten minutes off.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockCheck } from '../../../src/doctor/checks.js';
import { harness, type Harness, type RunResult } from '../../helpers/cli.js';
import { hostile, sendJson } from '../../hostile/client-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({
    keys: [
      { key: 'sk_full', org: 'org_a', scopes: ['agents:read', 'agents:write', 'calls:read', 'calls:write', 'calls:dispatch', 'webhooks:manage'] },
      { key: 'sk_agents_only', org: 'org_a', scopes: ['agents:read', 'agents:write'] },
    ],
  });
});
afterAll(() => h.close());

type Check = { check: string; status: string; message: string; fix?: string; details?: any };
const byName = (stdout: string) => new Map((JSON.parse(stdout) as Check[]).map((c) => [c.check, c]));

/** doctor --json ended 0 and warned in the named check: every check by name, and that one. */
function warnedIn(r: RunResult, name: string): { checks: Map<string, Check>; warned: Check } {
  expect(r.exitCode).toBe(0);
  const checks = byName(r.stdout);
  const warned = checks.get(name)!;
  expect(warned.status).toBe('warn');
  return { checks, warned };
}

describe('voicectl doctor', () => {
  it('a key missing scopes: names each missing scope and how to fix it, and writes nothing', async () => {
    const before = h.sandbox.requests.length;
    const { checks, warned: scopes } = warnedIn(await h.run(['doctor', '--json'], { env: { VOICECTL_API_KEY: 'sk_agents_only' } }), 'scopes');
    expect(scopes.message).toContain('calls:read');
    expect(scopes.message).toContain('webhooks:manage');
    expect(scopes.details.missing).toEqual(['calls:read', 'webhooks:manage']);
    expect(scopes.details.has).toEqual(['agents:read']);
    expect(scopes.fix).toContain('API access');
    expect(checks.get('key')!.status).toBe('ok');
    expect(h.sandbox.requests.slice(before).every((q) => q.method === 'GET')).toBe(true);
  });

  it('a full key: every check ok or skipped, exit 0; the text names each check with a word, not colour alone', async () => {
    const r = await h.run(['doctor', '--json'], { env: { VOICECTL_API_KEY: 'sk_full' } });
    expect(r.exitCode).toBe(0);
    const checks = byName(r.stdout);
    expect([...checks.keys()]).toEqual(['profile', 'config_file', 'proxy', 'reachable', 'clock', 'key', 'scopes', 'webhooks', 'do_not_call', 'calling_hours', 'timezone', 'node', 'caches']);
    expect(checks.get('reachable')!.details.latency_ms).toBeGreaterThanOrEqual(0);
    const text = await h.run(['doctor'], { env: { VOICECTL_API_KEY: 'sk_full' } });
    expect(text.stdout).toMatch(/ok\s+scopes\s+the key has agents:read, calls:read, webhooks:manage/);
  });

  it('a refused key fails the key check with exit 1 and a fix', async () => {
    const r = await h.run(['doctor', '--json'], { env: { VOICECTL_API_KEY: 'sk_nobody' } });
    expect(r.exitCode).toBe(1);
    const key = byName(r.stdout).get('key')!;
    expect(key.status).toBe('fail');
    expect(key.fix).toContain('voicectl login');
    expect(JSON.parse(r.stderr.trim())).toMatchObject({ code: 'checks_failed', exit_code: 1, details: { failed: ['key'] } });
  });

  it('a config file others can read fails with the chmod that fixes it', async () => {
    const dir = join(h.configDir, 'loose');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { base_url: h.sandbox.url, api_key: 'sk_full' } } }));
    chmodSync(file, 0o644);
    const r = await h.run(['doctor', '--json'], { env: { VOICECTL_CONFIG_DIR: dir, VOICECTL_API_KEY: undefined, VOICECTL_BASE_URL: undefined } });
    expect(r.exitCode).toBe(1);
    const cfg = byName(r.stdout).get('config_file')!;
    expect(cfg.status).toBe('fail');
    expect(cfg.fix).toBe(`chmod 600 ${file}`);
    expect(byName(r.stdout).get('profile')!.message).toContain('key from profile "default"');
  });

  /** A config folder whose default profile reaches the sandbox with a full key, plus `extra`. */
  function profileDir(name: string, extra: Record<string, unknown>): { dir: string; env: Record<string, string | undefined> } {
    const dir = join(h.configDir, name);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { base_url: h.sandbox.url, api_key: 'sk_full', ...extra } } }));
    chmodSync(file, 0o600);
    return { dir, env: { VOICECTL_CONFIG_DIR: dir, VOICECTL_API_KEY: undefined, VOICECTL_BASE_URL: undefined, VOICECTL_TZ: undefined, VOICECTL_DEFAULT_COUNTRY: undefined } };
  }

  it('a profile timezone that names no zone and a do-not-call file that is a FIFO fail as the commands refuse them (exit 1, not a hang)', async () => {
    const { dir, env } = profileDir('mars', { timezone: 'Mars/Olympus' });
    const fifo = join(dir, 'dnc.fifo');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: h.sandbox.url, api_key: 'sk_full', timezone: 'Mars/Olympus', do_not_call_file: fifo } } }));
    chmodSync(join(dir, 'config.json'), 0o600);
    const r = await h.run(['doctor', '--json'], { env });
    expect(r.exitCode).toBe(1);
    const checks = byName(r.stdout);
    expect(checks.get('timezone')).toMatchObject({ status: 'fail', message: 'The profile\'s timezone "Mars/Olympus" is not a time zone.' });
    expect(checks.get('timezone')!.fix).toContain('voicectl config set timezone ZONE');
    expect(checks.get('do_not_call')!.status).toBe('fail');
    expect(checks.get('do_not_call')!.message).toContain('not a regular file');
    expect(JSON.parse(r.stderr.trim())).toMatchObject({ code: 'checks_failed', details: { failed: ['do_not_call', 'timezone'] } });
    // A command that reads a time refuses the same zone.
    const calls = await h.run(['calls', 'list', '--since', '2026-01-01'], { env });
    expect(calls.exitCode).toBe(2);
    expect(calls.stderr).toContain('"Mars/Olympus" is not a time zone');
  });

  it('VOICECTL_TZ naming no zone fails even when the profile\'s is good; a good zone says where it comes from', async () => {
    const { env } = profileDir('zones', { timezone: 'Asia/Calcutta' });
    const bad = await h.run(['doctor', '--json'], { env: { ...env, VOICECTL_TZ: 'Asia/Mumbai' } });
    expect(bad.exitCode).toBe(1);
    expect(byName(bad.stdout).get('timezone')).toMatchObject({ status: 'fail', message: 'VOICECTL_TZ "Asia/Mumbai" is not a time zone.' });
    const good = await h.run(['doctor', '--json'], { env });
    expect(byName(good.stdout).get('timezone')).toMatchObject({ status: 'ok', details: { zone: 'Asia/Kolkata', from: 'the profile' } });
  });

  it('the do-not-call file is read as campaigns read it: numbers counted; local numbers with no default country fail with the fix', async () => {
    const { dir, env } = profileDir('dnc', {});
    const list = join(dir, 'dnc.txt');
    writeFileSync(list, '+91 98765 43210\n+1 (212) 555-0123\n');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: h.sandbox.url, api_key: 'sk_full', do_not_call_file: list } } }));
    chmodSync(join(dir, 'config.json'), 0o600);
    const ok = await h.run(['doctor', '--json'], { env });
    expect(byName(ok.stdout).get('do_not_call')).toMatchObject({ status: 'ok', details: { file: list, numbers: 2, age_days: 0 } });
    writeFileSync(list, '098765 43210\n');
    const local = await h.run(['doctor', '--json'], { env });
    expect(local.exitCode).toBe(1);
    const dnc = byName(local.stdout).get('do_not_call')!;
    expect(dnc.status).toBe('fail');
    expect(dnc.message).toContain('no country code');
    expect(dnc.fix).toContain('--default-country');
    const withCountry = await h.run(['doctor', '--json'], { env: { ...env, VOICECTL_DEFAULT_COUNTRY: 'IN' } });
    expect(byName(withCountry.stdout).get('do_not_call')).toMatchObject({ status: 'ok', details: { numbers: 1 } });
  });

  it('a service whose Date is ten minutes off: names the skew', async () => {
    const s = await hostile((req, res) => {
      const date = new Date(Date.now() - 10 * 60_000).toUTCString();
      if (req.url?.startsWith('/voices')) return sendJson(res, 200, [], { date });
      if (req.url?.startsWith('/agents')) return sendJson(res, 200, { agents: [], total: 0, limit: 1, offset: 0 }, { date });
      if (req.url?.startsWith('/calls')) return sendJson(res, 200, { calls: [], total: 0, limit: 1, offset: 0 }, { date });
      return sendJson(res, 200, [], { date });
    });
    try {
      const r = await s.run(['doctor', '--json']);
      expect(r.exitCode).toBe(1);
      const clock = byName(r.stdout).get('clock')!;
      expect(clock.status).toBe('fail');
      expect(clock.message).toContain('10 minutes ahead of the service');
      expect(clock.details.skew_seconds).toBeGreaterThanOrEqual(595);
      expect(clock.fix).toContain('network time');
      expect(s.seen.every((l) => l.startsWith('GET '))).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('webhook endpoints with failed deliveries: named, with the command that shows why; a proxy left out by NO_PROXY is said', async () => {
    const s = await hostile((req, res) => {
      const url = req.url ?? '';
      if (url.startsWith('/voices')) return sendJson(res, 200, []);
      if (url.startsWith('/agents')) return sendJson(res, 200, { agents: [], total: 0, limit: 1, offset: 0 });
      if (url.startsWith('/calls')) return sendJson(res, 200, { calls: [], total: 0, limit: 1, offset: 0 });
      if (url === '/webhooks/endpoints') return sendJson(res, 200, [{ id: 'we_1', url: 'https://hooks.example.com/voice', enabled: true }, { id: 'we_2', url: 'https://ok.example.com', enabled: true }]);
      if (url.startsWith('/webhooks/endpoints/we_1/deliveries')) return sendJson(res, 200, [{ id: 'd1', status: 'failed', attempts: 8, last_response_code: 500 }, { id: 'd2', status: 'delivered', attempts: 1, last_response_code: 200 }]);
      if (url.startsWith('/webhooks/endpoints/we_2/deliveries')) return sendJson(res, 200, [{ id: 'd3', status: 'delivered', attempts: 1, last_response_code: 200 }]);
      return sendJson(res, 404, { error: 'not found' });
    });
    try {
      const { checks, warned: hooks } = warnedIn(await s.run(['doctor', '--json'], { HTTP_PROXY: 'http://proxy.invalid:3128', NO_PROXY: '127.0.0.1' }), 'webhooks');
      expect(hooks.message).toContain('1 to https://hooks.example.com/voice (we_1)');
      expect(hooks.fix).toContain('voicectl webhook deliveries we_1');
      expect(checks.get('proxy')!.message).toContain('no proxy for this base URL (HTTP_PROXY, NO_PROXY set');
      expect(s.seen.every((l) => l.startsWith('GET '))).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('clockCheck: thresholds and direction', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(clockCheck(new Date(now).toUTCString(), now, 0).status).toBe('ok');
    expect(clockCheck(new Date(now - 45_000).toUTCString(), now, 0)).toMatchObject({ status: 'warn', details: { skew_seconds: 45 } });
    expect(clockCheck(new Date(now + 600_000).toUTCString(), now, 0).message).toContain('10 minutes behind');
    expect(clockCheck(undefined, now, 0).status).toBe('skip');
  });
});
