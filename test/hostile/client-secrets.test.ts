/**
 * Secrets never printed: a key a server echoes in its error, a base URL with credentials
 * or a key in its query string (in --debug traces, errors and `config list|get`). Files
 * that hold secrets are readable by their owner only.
 */
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { baseEnv, harness, runCli } from '../helpers/cli.js';
import { clientFor, ok } from '../helpers/given.js';
import { tempDir } from '../helpers/temp.js';
import { call, eachHostile, KEY, sendJson } from './client-harness.js';

const { start, closeAfter } = eachHostile();

const mode = (path: string) => statSync(path).mode & 0o777;

describe('a server that echoes the key', () => {
  it.each([
    [500, 'call list'],
    [401, 'call list'],
    [403, 'call list'],
  ])('is never repeated on stderr (HTTP %i, %s), with or without --debug', async (status) => {
    const h = await start((req, res) => {
      const key = String(req.headers['x-api-key']);
      sendJson(res, status, { error: `key ${key} is not valid for this region (sent ${key})`, status_code: status });
    });
    for (const extra of [[], ['--debug']]) {
      const r = await h.run(['call', 'list', ...extra]);
      expect(r.exitCode).toBe(status === 500 ? 1 : 3);
      expect(r.stderr).not.toContain(KEY);
      expect(r.stderr).toContain('key *** is not valid for this region (sent ***)');
    }
  });

  it('masks the webhook secret in use (env or profile) wherever a server repeats it', async () => {
    const secret = 'whsec_0123456789abcdefSECRET';
    const h = await start((_req, res) => sendJson(res, 400, { error: `endpoint secret ${secret} does not match`, status_code: 400 }));
    const fromEnv = await h.run(['call', 'list'], { VOICECTL_WEBHOOK_SECRET: secret });
    expect(fromEnv.exitCode).toBe(1);
    expect(fromEnv.stderr).toContain('endpoint secret *** does not match');
    expect(fromEnv.stderr).not.toContain(secret);
    expect((await h.run(['config', 'set', 'webhook_secret', secret])).exitCode).toBe(0);
    const fromProfile = await h.run(['call', 'list', '--debug']);
    expect(fromProfile.stderr).toContain('endpoint secret *** does not match');
    expect(fromProfile.stderr).not.toContain(secret);
  });

  it('is masked in a 200 body that is not JSON and in a redirect target', async () => {
    const h = await start((req, res) => {
      if (req.url!.startsWith('/calls/redirect')) {
        res.writeHead(302, { location: `https://login.example.com/?next=/calls&token=${KEY}` });
        res.end();
        return;
      }
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`upstream rejected ${KEY}`);
    });
    const redirect = await h.run(['call', 'get', 'redirect']);
    expect(redirect.stderr).not.toContain(KEY);
    expect(redirect.stderr).toContain('token=***');
    const plain = await h.run(['call', 'get', 'x'], { VOICECTL_TIMEOUT: '2' });
    expect(plain.stderr).not.toContain(KEY);
    expect(plain.stderr).toContain('upstream rejected ***');
  });
});

describe('a base URL that carries credentials', () => {
  it('is masked in --debug traces; the query parameters still reach the server', async () => {
    const h = await start((_req, res) => sendJson(res, 200, { calls: [call(1)], total: 1, limit: 200, offset: 0 }));
    const base = h.url.replace('http://', 'http://deploy:pa55w0rd-x@') + '/v1?api_key=gw-topsecret-42&region=in';
    const r = await h.run(['call', 'list', '--debug', '--json'], { VOICECTL_BASE_URL: base });
    expect(r.exitCode).toBe(0);
    expect(h.seen[0]).toBe('GET /v1/calls?api_key=gw-topsecret-42&region=in');
    expect(r.stderr).toMatch(/\[debug\] GET http:\/\/\*\*\*@127\.0\.0\.1:\d+\/v1\/calls\?api_key=\*\*\*&region=in → 200/);
    for (const secret of ['pa55w0rd-x', 'gw-topsecret-42', KEY]) expect(r.stderr).not.toContain(secret);
  });

  it('is masked in errors', async () => {
    const h = await start((_req, res) => { res.destroy(); });
    const base = h.url.replace('http://', 'http://deploy:pa55w0rd-x@') + '/?token=gw-topsecret-42';
    const r = await h.run(['call', 'get', 'c1', '--debug'], { VOICECTL_BASE_URL: base });
    expect(r.exitCode).toBe(1);
    for (const secret of ['pa55w0rd-x', 'gw-topsecret-42', KEY]) expect(r.stderr).not.toContain(secret);
  });

  it('is masked in every field of an error, as JSON and as text, when nothing listens at the address', async () => {
    const h = await start(() => {});
    const closedUrl = h.url;
    await h.close();
    const base = closedUrl.replace('http://', 'http://deploy:pa55w0rd-x@') + '/?api_key=gw-topsecret-42&region=in';
    for (const args of [['agent', 'list', '--json'], ['api', 'GET', '/agents', '--json'], ['call', 'get', 'c1', '--json']]) {
      const r = await h.run([...args, '--base-url', base]);
      expect(r.exitCode).toBe(1);
      const err = JSON.parse(r.stderr) as { code: string; details: { path: string } };
      expect(err.code).toBe('network');
      expect(err.details.path).toMatch(/\?api_key=\*\*\*&region=in$/);
      for (const secret of ['pa55w0rd-x', 'gw-topsecret-42', KEY]) expect(r.stderr).not.toContain(secret);
      const text = await h.run([...args.filter((a) => a !== '--json'), '--base-url', base, '--debug']);
      expect(text.exitCode).toBe(1);
      for (const secret of ['pa55w0rd-x', 'gw-topsecret-42', KEY]) expect(text.stderr).not.toContain(secret);
    }
  });

  it('is masked in the path of a JSON error the server answered (403 and 404)', async () => {
    const h = await start((req, res) => sendJson(res, req.url!.startsWith('/agents') ? 403 : 404, { error: 'no', status_code: 403 }));
    const base = `${h.url}/v1?token=gw-topsecret-42`;
    for (const args of [['agent', 'list', '--json'], ['call', 'get', 'c1', '--json']]) {
      const r = await h.run(args, { VOICECTL_BASE_URL: base });
      expect([3, 4]).toContain(r.exitCode);
      expect(JSON.parse(r.stderr).details.path).toContain('token=***');
      expect(r.stderr).not.toContain('gw-topsecret-42');
    }
  });

  it('is masked when login reports where it logged in', async () => {
    const h = await start((_req, res) => sendJson(res, 200, { agents: [], total: 0, limit: 50, offset: 0 }));
    const base = h.url.replace('http://', 'http://deploy:pa55w0rd-x@') + '/?token=gw-topsecret-42';
    for (const extra of [[], ['--json']]) {
      const r = await runCli(['login', '--with-key-stdin', '--base-url', base, ...extra], { ...baseEnv(h.config.dir) }, { input: `${KEY}\n` });
      expect(r.exitCode).toBe(0);
      expect(r.stdout + r.stderr).toContain('http://***@127.0.0.1');
      expect(r.stdout + r.stderr).not.toMatch(/pa55w0rd-x|gw-topsecret-42/);
    }
  });

  it('is masked by config list and config get', async () => {
    const h = await start(() => {});
    const base = 'https://deploy:pa55w0rd-x@api.example.com/v1?API_KEY=gw-topsecret-42&region=in';
    const set = await h.run(['config', 'set', 'base_url', base]);
    expect(set.exitCode).toBe(0);
    // The echo of `config set` itself is masked like config list.
    expect(set.stderr).toContain('Set base_url = https://***@api.example.com/v1?API_KEY=***&region=in');
    expect(set.stdout + set.stderr).not.toMatch(/pa55w0rd-x|gw-topsecret-42/);
    for (const param of ['key', 'token', 'secret', 'password', 'access_token']) {
      const r = await h.run(['config', 'set', 'base_url', `https://api.example.com/v1?${param}=hidden-${param}-value`]);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toContain(`?${param}=***`);
      expect(r.stderr).not.toContain(`hidden-${param}-value`);
    }
    expect((await h.run(['config', 'set', 'base_url', base])).exitCode).toBe(0);
    for (const args of [['config', 'list'], ['config', 'list', '--json'], ['config', 'get', 'base_url']]) {
      const r = await h.run(args, { VOICECTL_BASE_URL: undefined, VOICECTL_API_KEY: undefined });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('https://***@api.example.com/v1?API_KEY=***&region=in');
      expect(r.stdout + r.stderr).not.toMatch(/pa55w0rd-x|gw-topsecret-42/);
    }
  });
});

describe('files that hold secrets', () => {
  it('config: the file is 0600 and its folder 0700, also after --save-secret', async () => {
    const h = await harness({ allowLocalWebhooks: true });
    closeAfter(h);
    const dir = join(h.configDir, 'nested', 'voicectl');
    const env = { VOICECTL_CONFIG_DIR: dir };
    expect((await h.run(['config', 'set', 'default_country', 'IN'], { env })).exitCode).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
    chmodSync(join(dir, 'config.json'), 0o644);
    const created = await h.run(['webhook', 'create', '--url', 'http://127.0.0.1:4242/', '--allow-local', '--save-secret', '--json'], { env });
    expect(created.exitCode).toBe(0);
    const secret = JSON.parse(created.stdout).secret as string;
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toContain(secret);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
  });

  it('config: a folder that already existed with a looser mode is narrowed to 0700 when a setting is written', async () => {
    const t = tempDir();
    closeAfter({ close: async () => t.remove() });
    const dir = join(t.dir, 'voicectl');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const env = baseEnv(dir);
    expect((await runCli(['config', 'set', 'api_key', 'sk_live_0123456789abcdef'], env)).exitCode).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
    chmodSync(dir, 0o775);
    expect((await runCli(['config', 'set', 'default_country', 'IN'], env)).exitCode).toBe(0);
    expect(mode(dir)).toBe(0o700);
  });

  it('sandbox --state: written 0600, and a looser file from before is replaced by a 0600 one', async () => {
    const t = tempDir();
    closeAfter({ close: async () => t.remove() });
    const file = join(t.dir, 'state.json');
    for (let round = 0; round < 2; round++) {
      const sb = await startSandbox({ port: 0, timeScale: 600, stateFile: file });
      // A change, so the state is written when the sandbox stops.
      const { secret } = await ok<{ secret: string }>(clientFor(sb), 'POST', '/webhooks/endpoints', { url: `https://hooks.example.com/${round}` });
      await sb.close();
      expect(readFileSync(file, 'utf8')).toContain(sb.apiKey);
      expect(readFileSync(file, 'utf8')).toContain(secret);
      expect(mode(file)).toBe(0o600);
      chmodSync(file, 0o644);
    }
  });
});
