/** Every exit code of CLI.md, produced by the built binary. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interruptedSandbox, limitedHarness, type Harness } from '../helpers/cli.js';

let h: Harness;
let broken: Server;
let brokenUrl = '';
beforeAll(async () => {
  h = await limitedHarness();
  // A proxy in front of a dead upstream: an HTML 502 page on every request.
  broken = createServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
  });
  await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
  brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h.close();
  await new Promise((r) => broken.close(r));
});

const agentFlags = ['--voice', 'Aarav', '--greeting', 'Hi', '--call-purpose', 'Test', '--prompt', 'Be brief.'];

describe('exit codes', () => {
  it('0: success', async () => {
    expect((await h.run(['agent', 'list', '--api-key', 'sk_full'])).exitCode).toBe(0);
  });

  it('1: the request failed (an HTML 502 from a proxy), one readable line, no HTML, no stack', async () => {
    const r = await h.run(['agent', 'list', '--timeout', '5'], { env: { VOICECTL_BASE_URL: brokenUrl } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('502');
    expect(r.stderr).toContain('127.0.0.1');
    expect(r.stderr).not.toContain('<html>');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('2: usage error', async () => {
    const r = await h.run(['agent', 'list', '--limit', '500']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('1 to 200');
    expect((await h.run(['agent', 'frobnicate'])).exitCode).toBe(2);
  });

  it('3: missing key, refused key, missing scope (named)', async () => {
    const missing = await h.run(['agent', 'list'], { env: { VOICECTL_API_KEY: undefined } });
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toContain('VOICECTL_API_KEY');
    const bad = await h.run(['agent', 'list'], { env: { VOICECTL_API_KEY: 'sk_wrong' } });
    expect(bad.exitCode).toBe(3);
    expect(bad.stderr).toContain('voicectl login');
    const scope = await h.run(['agent', 'create', '--name', 'X', ...agentFlags], { env: { VOICECTL_API_KEY: 'sk_readonly' } });
    expect(scope.exitCode).toBe(3);
    expect(scope.stderr).toContain('agents:write');
  });

  it('4: not found', async () => {
    const r = await h.run(['agent', 'get', '00000000-0000-4000-8000-000000000000', '--api-key', 'sk_full']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('not found (or it belongs to another organization)');
  });

  it('5: plan limit, with the limit explained', async () => {
    const first = await h.run(['agent', 'create', '--name', 'One', ...agentFlags, '--api-key', 'sk_full']);
    expect(first.exitCode).toBe(0);
    const r = await h.run(['agent', 'create', '--name', 'Two', ...agentFlags, '--api-key', 'sk_full']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('agent_limit_exceeded');
    expect(r.stderr).toContain('no more agents');
    const lang = await h.run(['agent', 'update', 'One', '--language', 'pa-IN', '--api-key', 'sk_full']);
    expect(lang.exitCode).toBe(5);
    expect(lang.stderr).toContain('language_not_allowed');
  });

  it('130: interrupted by Ctrl-C', async () => {
    const r = await interruptedSandbox({ ...h.env, CI: 'true' });
    expect(r.exitCode).toBe(130);
  });
});
