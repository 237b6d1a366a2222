import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { start } from '../helpers/run.js';
import { waitFor } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'voicectl-sandbox-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sandbox(args: string[]) {
  const r = start(['sandbox', ...args], { env: { VOICECTL_CONFIG_DIR: dir }, openStdin: true, realTime: true });
  return { done: r.done, abort: { abort: () => void r.interrupt() }, out: r.stdout, err: r.stderr };
}

function file(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe('voicectl sandbox', () => {
  it('prints a ready-to-paste export line with a full-scope key, serves until Ctrl-C, then stops cleanly', async () => {
    const s = sandbox(['--port', '0', '--seed', '3', '--time-scale', '600']);
    const line = await waitFor(() => s.out().match(/^export VOICECTL_BASE_URL=(\S+) VOICECTL_API_KEY=(\S+) VOICECTL_SANDBOX_CLOCK='now=\S+; scale=600; real=\d+'$/m) ?? undefined, 10_000, 'the export line');
    const [, url, key] = line;
    expect(key).toMatch(/^sk_sandbox_[0-9a-f]{32}$/);
    for (const path of ['/agents', '/calls', '/campaigns']) {
      expect((await fetch(`${url}${path}`, { headers: { 'x-api-key': key! } })).status).toBe(200);
    }
    expect(s.err()).toContain('Sandbox running');
    expect(s.err()).toContain('seed 3');
    s.abort.abort();
    expect(await s.done).toBe(130);
    expect(s.err()).toContain('Sandbox stopped');
    await expect(fetch(`${url}/voices`)).rejects.toThrow();
  });

  it('uses --keys and --plan', async () => {
    const keys = file('keys.json', JSON.stringify([
      { key: 'sk_cli_reader', org: 'acme', scopes: ['agents:read'] },
      { key: 'sk_cli_full', org: 'acme', scopes: ['agents:read', 'agents:write', 'calls:write', 'calls:dispatch', 'calls:read', 'webhooks:manage'], daily_dispatch_cap: 50 },
    ]));
    const plan = file('plan.json', JSON.stringify({ agent_limit: 1, languages: ['hi-IN'] }));
    const s = sandbox(['--port', '0', '--keys', keys, '--plan', plan]);
    try {
      const [, url, key] = await waitFor(() => s.out().match(/VOICECTL_BASE_URL=(\S+) VOICECTL_API_KEY=(\S+)/) ?? undefined, 10_000, 'the export line');
      expect(key).toBe('sk_cli_full');
      const post = (body: unknown, k = key!) => fetch(`${url}/agents`, { method: 'POST', headers: { 'x-api-key': k, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post({ name: 'A', voice_name: 'Ananya' })).status).toBe(402);
      expect((await post({ name: 'A', voice_name: 'Priya' })).status).toBe(201);
      const over = await post({ name: 'B', voice_name: 'Priya' });
      expect(over.status).toBe(402);
      expect(((await over.json()) as any).error.limit).toBe('agent_limit_exceeded');
      expect((await post({ name: 'C', voice_name: 'Priya' }, 'sk_cli_reader')).status).toBe(403);
      expect(s.err()).toContain('cap 50/day');
    } finally {
      s.abort.abort();
      await s.done;
    }
  });

  it.each([
    ['not JSON', '--keys', '[{"key": '],
    ['not an array', '--keys', '{"key": "sk_abcdefgh"}'],
    ['an unknown scope', '--keys', '[{"key": "sk_abcdefgh", "org": "a", "scopes": ["calls:everything"]}]'],
    ['a negative cap', '--keys', '[{"key": "sk_abcdefgh", "org": "a", "scopes": [], "daily_dispatch_cap": -1}]'],
    ['a plan with a bad limit', '--plan', '{"agent_limit": "ten"}'],
    ['a plan with an unknown field', '--plan', '{"agents": 3}'],
  ])('exits 2 with a readable message for %s', async (_what, flag, content) => {
    const s = sandbox(['--port', '0', flag, file(`bad-${Math.random()}.json`, content)]);
    expect(await s.done).toBe(2);
    expect(s.err()).toMatch(new RegExp(`error: ${flag}`));
    expect(s.err()).not.toMatch(/at .*\.ts:\d+/);
    expect(s.out()).toBe('');
  });

  it('exits 2 for a missing option file and a broken state file', async () => {
    const missing = sandbox(['--port', '0', '--keys', join(dir, 'nope.json')]);
    expect(await missing.done).toBe(2);
    expect(missing.err()).toContain('no such file');
    const state = sandbox(['--port', '0', '--state', file('state.json', 'garbage')]);
    expect(await state.done).toBe(2);
    expect(state.err()).toContain('not valid JSON');
  });

  it('reports a port in use readably', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const s = sandbox(['--port', String(port)]);
      expect(await s.done).toBe(1);
      expect(s.err()).toContain(`port ${port}`);
      expect(s.err()).toContain('already in use');
    } finally {
      blocker.close();
    }
  });

  it('prints JSON with --json', async () => {
    const s = sandbox(['--port', '0', '--json']);
    try {
      const line = await waitFor(() => (s.out().includes('\n') ? s.out() : undefined), 10_000, 'the JSON line');
      const info = JSON.parse(line);
      expect(info).toMatchObject({ base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), api_key: expect.any(String) });
    } finally {
      s.abort.abort();
      await s.done;
    }
  });
  it('--json carries what the export line carries (the clock too) and what --learn kept; the start is shown in the user\'s zone', async () => {
    const calls = Array.from({ length: 40 }, (_, i) => JSON.stringify({ phone_number: `+91981${String(1_000_000 + i)}`, status: i % 2 ? 'completed' : 'no_answer', duration_seconds: 60 }));
    const s = sandbox(['--port', '0', '--json', '--time-scale', '3600', '--start', '2026-12-01T08:00+05:30', '--learn', file('calls.jsonl', `${calls.join('\n')}\n`)]);
    try {
      const info = JSON.parse(await waitFor(() => (s.out().includes('\n') ? s.out() : undefined), 10_000, 'the JSON line'));
      expect(info).toMatchObject({ time_scale: 3600, started_at: '2026-12-01T02:30:00.000Z', learned: { calls: 40, skipped: 0, connect_rate: 0.5, countries: ['IN'] } });
      expect(info.sandbox_clock).toMatch(/^now=2026-12-01T02:\d\d:\d\d\.\d+Z; scale=3600; real=\d+$/);
    } finally {
      s.abort.abort();
      await s.done;
    }
    const t = sandbox(['--port', '0', '--time-scale', '3600', '--start', '2026-12-01T08:00+05:30', '--tz', 'Asia/Kolkata']);
    try {
      await waitFor(() => (t.err().includes('Ctrl-C') ? true : undefined), 10_000, 'the banner');
      expect(t.err()).toContain('started at 2026-12-01 08:00 IST');
    } finally {
      t.abort.abort();
      await t.done;
    }
  });

  it.each([
    [['--learn', '.'], '--learn .: it is a directory'],
    [['--learn', 'FILE', '--learned-out', '/nonexistent-folder/rates.json'], '--learned-out /nonexistent-folder/rates.json cannot be written'],
  ])('%j is exit 2 with a reason, before serving', async (args, message) => {
    const calls = Array.from({ length: 20 }, (_, i) => JSON.stringify({ phone_number: `+91981${String(1_000_000 + i)}`, status: 'completed', duration_seconds: 60 }));
    const learnFile = file('few.jsonl', `${calls.join('\n')}\n`);
    const s = sandbox(['--port', '0', ...args.map((a) => (a === 'FILE' ? learnFile : a === '.' ? dir : a))]);
    expect(await s.done).toBe(2);
    expect(s.err()).toContain(message === '--learn .: it is a directory' ? `--learn ${dir}: it is a directory` : message);
  });
});
