/**
 * Errors as JSON (docs/errors.md): under --json, -o json or VOICECTL_ERROR_FORMAT=json,
 * every exit code of CLI.md's table comes with one JSON object on stderr whose `code`
 * and `retryable` say what happened.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interruptedSandbox, limitedHarness, sharedHarness } from '../helpers/cli.js';
import { hostile, sendJson, type Hostile } from '../hostile/client-harness.js';

const h = sharedHarness(limitedHarness);

const agentFlags = ['--voice', 'Aarav', '--greeting', 'Hi', '--call-purpose', 'Test', '--prompt', 'Be brief.'];

/** stderr is exactly one JSON object on one line. */
function errorOf(stderr: string): Record<string, any> {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

async function withServer<T>(handler: Parameters<typeof hostile>[0], fn: (s: Hostile) => Promise<T>): Promise<T> {
  const s = await hostile(handler);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

describe('errors as JSON', () => {
  it('1: a 502 (after the GET retries) is server_error, retryable', async () => {
    await withServer((_req, res) => sendJson(res, 502, { error: 'bad gateway' }), async (s) => {
      const r = await s.run(['agent', 'list', '--json']);
      expect(r.exitCode).toBe(1);
      const e = errorOf(r.stderr);
      expect(e).toMatchObject({ code: 'server_error', exit_code: 1, retryable: true, details: { method: 'GET', path: expect.stringContaining('/agents'), status: 502 } });
      expect(e.error).toContain('502');
    });
  }, 60_000);

  it('1: a 429 is rate_limited, retryable', async () => {
    await withServer((_req, res) => sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '3600' }), async (s) => {
      const r = await s.run(['agent', 'list', '-o', 'json']);
      expect(r.exitCode).toBe(1);
      expect(errorOf(r.stderr)).toMatchObject({ code: 'rate_limited', exit_code: 1, retryable: true });
    });
  }, 60_000);

  it('1: a refused connection is network, retryable', async () => {
    const s = await hostile((_req, res) => sendJson(res, 200, {}));
    const url = s.url;
    await s.close();
    const r = await h.run(['agent', 'list', '--json', '--timeout', '5'], { env: { VOICECTL_BASE_URL: url } });
    expect(r.exitCode).toBe(1);
    expect(errorOf(r.stderr)).toMatchObject({ code: 'network', exit_code: 1, retryable: true });
  }, 60_000);

  it('1: no answer within --timeout is timeout, retryable', async () => {
    // Headers never sent: the request's deadline passes.
    await withServer(() => {}, async (s) => {
      const r = await s.run(['agent', 'list', '--json', '--timeout', '1']);
      expect(r.exitCode).toBe(1);
      expect(errorOf(r.stderr)).toMatchObject({ code: 'timeout', exit_code: 1, retryable: true });
    });
  }, 60_000);

  it('1: a list that stops short of its total is incomplete_list, retryable, after what was read', async () => {
    await withServer((req, res) => {
      const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset') ?? 0);
      // Says 5, sends 2, then nothing.
      sendJson(res, 200, { agents: offset === 0 ? [{ id: 'a1', name: 'A' }, { id: 'a2', name: 'B' }] : [], total: 5, limit: 200, offset });
    }, async (s) => {
      const r = await s.run(['agent', 'list', '--all', '--json']);
      expect(r.exitCode).toBe(1);
      expect(JSON.parse(r.stdout)).toHaveLength(2);
      expect(errorOf(r.stderr)).toMatchObject({ code: 'incomplete_list', exit_code: 1, retryable: true });
    });
  }, 60_000);

  it('2: a bad flag is usage, not retryable, and commander prints nothing else', async () => {
    const r = await h.run(['agent', 'list', '--limit', '500', '--json']);
    expect(r.exitCode).toBe(2);
    const e = errorOf(r.stderr);
    expect(e).toMatchObject({ code: 'usage', exit_code: 2, retryable: false });
    expect(e.error).toContain('1 to 200');
  });

  it('2: invalid rows name their row numbers (contacts validate and campaign create)', async () => {
    const csv = join(h.dir, 'bad.csv');
    writeFileSync(csv, 'name,phone\nAsha,+919876543210\nRavi,12\n');
    const v = await h.run(['contacts', 'validate', csv, '--json']);
    expect(v.exitCode).toBe(2);
    expect(JSON.parse(v.stdout).invalid).toBe(1);
    const e = errorOf(v.stderr);
    expect(e).toMatchObject({ code: 'invalid_rows', exit_code: 2, retryable: false, details: { invalid: 1, errors: [{ row: 3, column: 'phone' }] } });
    const c = await h.run(['campaign', 'create', '--name', 'C', '--agent', '00000000-0000-4000-8000-000000000000', '--csv', csv], { env: { VOICECTL_ERROR_FORMAT: 'json', VOICECTL_API_KEY: 'sk_full' } });
    expect(c.exitCode).toBe(2);
    expect(errorOf(c.stderr.split('\n').filter((l) => l.startsWith('{')).join('\n'))).toMatchObject({ code: 'invalid_rows', details: { errors: [{ row: 3 }] } });
  });

  it('3: a missing key and a refused key are auth; a missing scope is forbidden and names it', async () => {
    const missing = await h.run(['agent', 'list', '--json'], { env: { VOICECTL_API_KEY: undefined } });
    expect(missing.exitCode).toBe(3);
    expect(errorOf(missing.stderr)).toMatchObject({ code: 'auth', exit_code: 3, retryable: false, hint: expect.stringContaining('VOICECTL_API_KEY') });
    const bad = await h.run(['agent', 'list', '--json'], { env: { VOICECTL_API_KEY: 'sk_wrong' } });
    expect(errorOf(bad.stderr)).toMatchObject({ code: 'auth', exit_code: 3, retryable: false });
    const scope = await h.run(['agent', 'create', '--name', 'X', ...agentFlags, '--json'], { env: { VOICECTL_API_KEY: 'sk_readonly' } });
    expect(scope.exitCode).toBe(3);
    expect(errorOf(scope.stderr)).toMatchObject({ code: 'forbidden', exit_code: 3, retryable: false, details: { status: 403, scope: 'agents:write' } });
  });

  it('4: not found', async () => {
    const r = await h.run(['agent', 'get', '00000000-0000-4000-8000-000000000000', '--json', '--api-key', 'sk_full']);
    expect(r.exitCode).toBe(4);
    expect(errorOf(r.stderr)).toMatchObject({ code: 'not_found', exit_code: 4, retryable: false });
  });

  it('5: plan limit, with the limit in details', async () => {
    expect((await h.run(['agent', 'create', '--name', 'One', ...agentFlags, '--api-key', 'sk_full'])).exitCode).toBe(0);
    const r = await h.run(['agent', 'create', '--name', 'Two', ...agentFlags, '--api-key', 'sk_full', '--json']);
    expect(r.exitCode).toBe(5);
    expect(errorOf(r.stderr)).toMatchObject({ code: 'plan_limit', exit_code: 5, retryable: false, details: { status: 402, limit: 'agent_limit_exceeded' } });
  });

  it('6: plan --check with drift is changes_pending', async () => {
    const account = join(h.dir, 'account');
    expect((await h.run(['pull', account, '--api-key', 'sk_full'])).exitCode).toBe(0);
    expect((await h.run(['agent', 'update', 'One', '--greeting', 'Changed', '--api-key', 'sk_full'])).exitCode).toBe(0);
    const r = await h.run(['plan', account, '--check', '--api-key', 'sk_full'], { env: { VOICECTL_ERROR_FORMAT: 'json' } });
    expect(r.exitCode).toBe(6);
    const e = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(e).toMatchObject({ code: 'changes_pending', exit_code: 6, retryable: false });
  });

  it('130: interrupted', async () => {
    const r = await interruptedSandbox({ ...h.env, VOICECTL_ERROR_FORMAT: 'json' });
    expect(r.exitCode).toBe(130);
    const e = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(e).toMatchObject({ code: 'interrupted', exit_code: 130, retryable: false });
  });

  it('text stays text without the switch, and VOICECTL_ERROR_FORMAT=text wins over --json', async () => {
    const plain = await h.run(['agent', 'get', 'nobody', '--api-key', 'sk_full']);
    expect(plain.stderr).toMatch(/^error: /);
    const text = await h.run(['agent', 'get', 'nobody', '--json', '--api-key', 'sk_full'], { env: { VOICECTL_ERROR_FORMAT: 'text' } });
    expect(text.stderr).toMatch(/^error: /);
  });
});
