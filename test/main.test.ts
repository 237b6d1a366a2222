import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse, networkError } from '../src/api/errors.js';
import { testContext } from '../src/context-test.js';
import { AuthError, ChangesPendingError, FailureError, InterruptedError, NotFoundError, SilentExit, UsageError } from '../src/errors.js';
import { describe as describeError, EXIT, exitCodeFor, run as main } from '../src/main.js';
import { version } from '../src/program.js';
import { json, serve, type TestServer } from './api/helpers.js';
import { run } from './helpers/run.js';

const configDir = mkdtempSync(join(tmpdir(), 'voicectl-main-'));
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function apiError(status: number, body: unknown, method = 'GET', path = '/agents', scope?: string): ApiError {
  return errorFromResponse(method, `https://api.example.com/v1${path}`, status, '', 'application/json', JSON.stringify(body), scope);
}

describe('exitCodeFor and describe', () => {
  it('401: exit 3, names VOICECTL_API_KEY and voicectl login', () => {
    const err = apiError(401, { error: 'invalid api key', status_code: 401 });
    expect(exitCodeFor(err)).toBe(EXIT.AUTH);
    const { message, hint } = describeError(err);
    expect(message).toContain('invalid api key');
    expect(hint).toContain('VOICECTL_API_KEY');
    expect(hint).toContain('voicectl login');
  });

  it('403: exit 3, names the scope the endpoint needs', () => {
    const err = apiError(403, { error: 'missing scope' }, 'POST', '/campaigns/c1/launch', 'calls:dispatch');
    expect(exitCodeFor(err)).toBe(EXIT.AUTH);
    const { message, hint } = describeError(err);
    expect(message).toContain('POST /v1/campaigns/c1/launch');
    expect(hint).toContain('"calls:dispatch"');
  });

  it('402: exit 5, prints the limit and what it means', () => {
    const err = apiError(402, { error: { message: 'Plan limit', limit: 'agent_limit_exceeded' } }, 'POST');
    expect(exitCodeFor(err)).toBe(EXIT.PLAN_LIMIT);
    const { message, hint } = describeError(err);
    expect(message).toContain('agent_limit_exceeded');
    expect(hint).toContain('no more agents');
    const lang = describeError(apiError(402, { error: { limit: 'language_not_allowed' } }, 'POST'));
    expect(lang.hint).toContain('language is not in the plan');
  });

  it('404: exit 4, "not found (or it belongs to another organization)"', () => {
    const err = apiError(404, { error: 'Not found' }, 'GET', '/calls/c9');
    expect(exitCodeFor(err)).toBe(EXIT.NOT_FOUND);
    expect(describeError(err).message).toBe('not found (or it belongs to another organization): GET /v1/calls/c9');
  });

  it('500 and other statuses: exit 1 with the method, path and server message', () => {
    const err = apiError(500, { error: 'database unavailable' });
    expect(exitCodeFor(err)).toBe(EXIT.FAILURE);
    expect(describeError(err).message).toBe('GET /v1/agents failed (HTTP 500): database unavailable');
    expect(exitCodeFor(apiError(429, { error: 'slow down' }))).toBe(EXIT.FAILURE);
    expect(exitCodeFor(apiError(422, { error: 'bad row 3' }))).toBe(EXIT.FAILURE);
  });

  it('network, timeout and unexpected responses: exit 1 with their one-line message', () => {
    const refused = networkError('GET', 'http://127.0.0.1:9/agents', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 30_000);
    expect(exitCodeFor(refused)).toBe(EXIT.FAILURE);
    expect(describeError(refused).message).toBe('127.0.0.1:9 refused the connection (is the service running at this address?)');
    const slow = networkError('GET', 'http://h/agents', Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), 30_000);
    expect(exitCodeFor(slow)).toBe(EXIT.FAILURE);
    expect(describeError(slow).message).toBe('timed out: h did not answer GET /agents within 30s (raise --timeout if it is just slow)');
    const odd = new ApiError({ kind: 'unexpected', method: 'GET', url: 'http://h/voices', message: 'h sent an unexpected response' });
    expect([exitCodeFor(odd), describeError(odd).message]).toEqual([EXIT.FAILURE, 'h sent an unexpected response']);
  });

  it('maps each CLI error class to its exit code', () => {
    expect(exitCodeFor(new UsageError('bad flag'))).toBe(EXIT.USAGE);
    expect(exitCodeFor(new ChangesPendingError('2 change(s) pending'))).toBe(6);
    expect(exitCodeFor(new AuthError('no key'))).toBe(EXIT.AUTH);
    expect(exitCodeFor(new NotFoundError('no file'))).toBe(EXIT.NOT_FOUND);
    expect(exitCodeFor(new FailureError('write failed'))).toBe(EXIT.FAILURE);
    expect(exitCodeFor(new InterruptedError())).toBe(EXIT.INTERRUPTED);
    expect(exitCodeFor(new SilentExit(2))).toBe(2);
    expect(exitCodeFor(new CommanderError(1, 'commander.unknownOption', 'unknown option'))).toBe(EXIT.USAGE);
    expect(exitCodeFor(new CommanderError(0, 'commander.version', '1.0.0'))).toBe(EXIT.OK);
    expect(exitCodeFor(new Error('boom'))).toBe(EXIT.FAILURE);
    expect(describeError(new UsageError('bad flag', { hint: 'try --help' }))).toEqual({ message: 'bad flag', hint: 'try --help' });
    expect(describeError(new Error('boom')).message).toBe('unexpected error: boom');
  });

  it('treats any error after Ctrl-C as an interruption', () => {
    const ac = new AbortController();
    ac.abort();
    const ctx = testContext({ signal: ac.signal });
    expect(exitCodeFor(new Error('socket closed'), ctx)).toBe(EXIT.INTERRUPTED);
  });
});

function cli(argv: string[], env: Record<string, string> = {}) {
  return run(argv, { env: { VOICECTL_CONFIG_DIR: configDir, ...env } });
}

describe('run(argv, ctx) in process', () => {
  it('exits 2 on an unknown option, with the message on stderr', async () => {
    const r = await cli(['agent', 'list', '--bogus']);
    expect(r.exitCode).toBe(EXIT.USAGE);
    expect(r.stderr).toContain("unknown option '--bogus'");
    expect(r.stdout).toBe('');
  });

  it('prints the version and exits 0', async () => {
    const r = await cli(['--version']);
    expect(r.exitCode).toBe(EXIT.OK);
    expect(r.stdout.trim()).toBe(version());
  });

  it('exits 2 when no base URL is set, saying how to set one', async () => {
    const r = await cli(['agent', 'list']);
    expect(r.exitCode).toBe(EXIT.USAGE);
    expect(r.stderr).toContain('No service address is set.');
    expect(r.stderr).toContain('VOICECTL_BASE_URL');
  });

  it('exits 3 when no API key is set', async () => {
    const r = await cli(['agent', 'list'], { VOICECTL_BASE_URL: 'http://127.0.0.1:9' });
    expect(r.exitCode).toBe(EXIT.AUTH);
    expect(r.stderr).toContain('No API key is set.');
    expect(r.stderr).toContain('VOICECTL_API_KEY');
  });

  it.each([
    [401, { error: 'bad key' }, EXIT.AUTH, 'VOICECTL_API_KEY'],
    [403, { error: { message: 'forbidden', code: 'scope' } }, EXIT.AUTH, '"agents:read"'],
    [500, { error: 'boom', status_code: 500 }, EXIT.FAILURE, 'failed (HTTP 500): boom'],
  ] as const)('maps a %i from the server to its exit code and message', async (status, body, code, text) => {
    const server = await serve((_req, res) => json(res, status, body));
    servers.push(server);
    const r = await cli(['agent', 'list'], { VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_x' });
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(text);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('reports an HTML 502 in one line naming the host, with no HTML and no stack trace', async () => {
    const server = await serve((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>'));
    servers.push(server);
    const r = await cli(['agent', 'list'], { VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_x' });
    expect(r.exitCode).toBe(EXIT.FAILURE);
    expect(r.stderr).toBe(`error: GET /agents failed (HTTP 502): ${server.host} answered HTTP 502 Bad Gateway with a non-JSON page (text/html)\n`);
  });
});
