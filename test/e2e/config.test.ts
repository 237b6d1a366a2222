/** `voicectl config`, run as the built binary. */
import { statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../config/harness.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

function env() {
  const t = tempDir('voicectl-e2e-config-');
  cleanups.push(t.remove);
  return baseEnv(join(t.dir, 'voicectl'));
}

const KEY = 'sk_live_e2eSecretValue_wxyz';

describe('voicectl config', () => {
  it('list masks the API key (table and --json) and names the file on stderr', async () => {
    const e = env();
    expect((await runCli(['config', 'set', 'api_key', KEY], e)).exitCode).toBe(0);
    expect((await runCli(['config', 'set', 'base_url', 'https://api.example.com/v1'], e)).exitCode).toBe(0);
    expect((await runCli(['config', 'set', 'default_country', 'in'], e)).exitCode).toBe(0);

    const table = await runCli(['config', 'list'], e);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^api_key\s+\*\*\*\*wxyz$/m);
    expect(table.stdout).toMatch(/^default_country\s+IN$/m);
    expect(table.stderr).toContain(join(e.VOICECTL_CONFIG_DIR!, 'config.json'));

    const json = await runCli(['config', 'list', '--json'], e);
    expect(JSON.parse(json.stdout)).toEqual({ base_url: 'https://api.example.com/v1', api_key: '****wxyz', default_country: 'IN' });

    const get = await runCli(['config', 'get', 'api_key'], e);
    expect(get.stdout.trim()).toBe('****wxyz');
    for (const r of [table, json, get]) expect(r.stdout + r.stderr).not.toContain(KEY);
    if (process.platform !== 'win32') expect(statSync(join(e.VOICECTL_CONFIG_DIR!, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('an unknown key is exit 2 listing the valid ones', async () => {
    const r = await runCli(['config', 'set', 'region', 'eu'], env());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('base_url, api_key, default_country, timeout');
  });

  it('the environment beats the profile, and a flag beats the environment', async () => {
    // Answers every path, so the path of each request shows which base URL was used.
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"agents": [], "total": 0}');
    });
    const { url, close } = await listenOnLoopback(server);
    cleanups.push(() => void close());
    const e = env();
    await runCli(['config', 'set', 'base_url', `${url}/profile`], e);
    await runCli(['config', 'set', 'api_key', 'sk_profile_1'], e);

    expect((await runCli(['agent', 'list', '--json'], e)).exitCode).toBe(0);
    expect((await runCli(['agent', 'list', '--json'], { ...e, VOICECTL_BASE_URL: `${url}/env` })).exitCode).toBe(0);
    expect((await runCli(['agent', 'list', '--json', '--base-url', `${url}/flag`], { ...e, VOICECTL_BASE_URL: `${url}/env` })).exitCode).toBe(0);
    expect(paths.map((p) => p.split('/')[1])).toEqual(['profile', 'env', 'flag']);
  });
});
