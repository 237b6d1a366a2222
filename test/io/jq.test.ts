/**
 * --jq behaves as `jq -r` with the same program on the same bytes: the built binary
 * against a hand-made server whose answers carry what the sandbox never sends (numbers
 * JavaScript cannot hold, strings with edge spaces), and signals sent to the process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../../src/context-test.js';
import { applyTemplate } from '../../src/io/filter.js';
import { BIN, baseEnv, runCli } from '../helpers/cli.js';

/** Three calls over two pages, with numbers as the service wrote them. */
const CALLS = [0, 1, 2].map((i) => `{"call_id":"c${i}","status":"completed","duration_seconds":1${i}.000,"cost":10000000000000000000${i}}`);

const BODIES: Record<string, string> = {
  '/numbers': '{"big":100000000000000000001,"fixed":1.000,"exp":1E+2,"list":[1.10,-0.0]}',
  '/list': '[1,0,2]',
  '/spaces': '["  padded  ","two\\nlines\\n",""]',
  '/scalar': '1.000',
};

let server: Server;
let configDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://localhost');
    res.writeHead(200, { 'content-type': 'application/json' });
    if (url.pathname === '/calls') {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      res.end(`{"calls":[${CALLS.slice(offset, offset + 2).join(',')}],"total":${CALLS.length},"limit":2,"offset":${offset}}`);
      return;
    }
    res.end(BODIES[url.pathname] ?? 'null');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  configDir = mkdtempSync(join(tmpdir(), 'voicectl-jq-'));
  env = { ...baseEnv(configDir), VOICECTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, VOICECTL_API_KEY: 'k' };
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(configDir, { recursive: true, force: true });
});

const jq = (args: string[], extra: Record<string, string> = {}) => runCli(args, { ...env, ...extra }, { stripFinalNewline: false });

describe('--jq as jq runs it', () => {
  it('a runtime error after some output: the output, then exit 1 with the error on stderr', async () => {
    const r = await jq(['api', 'GET', '/list', '--jq', '.[] | if . == 0 then error("zero") else . end']);
    expect(r.stdout).toBe('1\n');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('zero');
    expect(r.stderr).not.toContain('jq: error');
  });

  it('the same under --json: the error as JSON on stderr', async () => {
    const r = await jq(['api', 'GET', '/list', '--json', '--jq', '.[] | if . == 0 then error("zero") else . end']);
    expect(r.stdout).toBe('1\n');
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'jq_error', exit_code: 1 });
    expect(JSON.parse(r.stderr).error).toContain('zero');
  });

  it('a program that does not compile: exit 2, nothing on stdout', async () => {
    const r = await jq(['api', 'GET', '/list', '--jq', '.[] | foo(']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('not a jq expression');
  });

  it('raw strings byte for byte: edge spaces, inner and last newlines, an empty string', async () => {
    const r = await jq(['api', 'GET', '/spaces', '--jq', '.[]']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('  padded  \ntwo\nlines\n\n\n');
  });

  it("the service's number text reaches jq: big integers and trailing zeros are kept", async () => {
    const r = await jq(['api', 'GET', '/numbers', '--jq', '.big, .fixed, .exp, .list[], (.big | tostring)']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('100000000000000000001\n1.000\n1E+2\n1.10\n-0.0\n100000000000000000001\n');
    const scalar = await jq(['api', 'GET', '/scalar', '--jq', '.']);
    expect(scalar.stdout).toBe('1.000\n');
  });

  it('call list --all: the pages joined without rewriting a number', async () => {
    const r = await jq(['call', 'list', '--all', '--jq', '.[] | "\\(.call_id) \\(.duration_seconds) \\(.cost)"']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('c0 10.000 100000000000000000000\nc1 11.000 100000000000000000001\nc2 12.000 100000000000000000002\n');
    const paged = await jq(['api', 'GET', '/calls', '--paginate', '-F', 'limit=2', '--jq', '.[].cost']);
    expect(paged.stdout).toBe('100000000000000000000\n100000000000000000001\n100000000000000000002\n');
  });

  it("$ENV and env are the user's environment", async () => {
    const r = await jq(['api', 'GET', '/list', '--jq', '$ENV.GREETING, env.GREETING, $ENV.HOME, ($ENV | has("USER"))'], { GREETING: 'नमस्ते, héllo' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`नमस्ते, héllo\nनमस्ते, héllo\n${configDir}\nfalse\n`);
  });

  it('out of memory: a plain message and exit 1, not an Emscripten abort', async () => {
    const r = await jq(['api', 'GET', '/list', '--jq', 'reduce range(40) as $i ("x"; . + .)']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('ran out of memory');
    expect(r.stderr).not.toMatch(/Aborted|ASSERTIONS|RuntimeError/);
  });

  it('debug and stderr output pass through to stderr, in a run that succeeds', async () => {
    const r = await jq(['api', 'GET', '/list', '--jq', '.[0] | debug']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('1\n');
    expect(r.stderr).toBe('["DEBUG:",1]\n');
  });

  // Ctrl-C and SIGTERM end a filter that never would: jq runs on a thread that is abandoned.
  // It has started once its debug line is on stderr (jq writes stderr unbuffered).
  it.each([
    ['def f: f; f', 'SIGINT'],
    ['[range(1e9)]', 'SIGINT'],
    ['def f: f; f', 'SIGTERM'],
  ] as const)('%s is ended by %s with exit 130', async (program, signal) => {
    const child = execa(process.execPath, [BIN, 'api', 'GET', '/list', '--jq', `(1 | debug | empty), (${program})`], { reject: false, env, extendEnv: false, timeout: 60_000 });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
    for (let i = 0; i < 600 && !err.includes('DEBUG'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(err).toContain('DEBUG');
    child.kill(signal);
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.timedOut).toBe(false);
  });
});

describe('--template', () => {
  it('time shows the --tz zone, named', async () => {
    const ctx = testContext({ opts: { tz: 'Asia/Kolkata' }, now: () => new Date('2026-01-02T13:00:00Z') });
    expect(await applyTemplate(ctx, '{{time at}}|{{time at "date"}}|{{time at "relative"}}', { at: '2026-01-02T20:00:00Z' }))
      .toBe('2026-01-03 01:30 IST|2026-01-03|in 7 hours');
    const ny = testContext({ opts: { tz: 'America/New_York' }, now: () => new Date('2026-07-02T13:00:00Z') });
    expect(await applyTemplate(ny, '{{time at}}', { at: '2026-07-02T10:00:00Z' })).toBe('2026-07-02 06:00 EDT');
  });
});
