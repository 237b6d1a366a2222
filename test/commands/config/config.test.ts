/** `voicectl config`: in process, and as the built binary (where the environment is a real one). */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configPath, readProfile } from '../../../src/config/profiles.js';
import { tempDirs } from '../../helpers/temp.js';
import { baseEnv, runCli } from '../../helpers/cli.js';
import { listenOnLoopback } from '../../helpers/loopback.js';
import { run } from '../../helpers/run.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));
const dir = tempDirs('voicectl-config-');
const configEnv = () => ({ VOICECTL_CONFIG_DIR: join(dir(), 'cfg') });

const KEY = 'sk_live_Secret_abcd9876';

describe('voicectl config', () => {
  it('set validates and saves; get prints the value; unset removes it', async () => {
    const env = configEnv();
    expect((await run(['config', 'set', 'base_url', 'https://api.example.com/v1/'], { env })).exitCode).toBe(0);
    expect((await run(['config', 'set', 'default_country', 'in'], { env })).exitCode).toBe(0);
    expect((await run(['config', 'set', 'timeout', '45'], { env })).exitCode).toBe(0);
    expect(readProfile(env, 'default')).toEqual({ base_url: 'https://api.example.com/v1', default_country: 'IN', timeout: '45' });

    const got = await run(['config', 'get', 'default_country'], { env });
    expect(got).toMatchObject({ exitCode: 0, stdout: 'IN\n' });

    const unset = await run(['config', 'unset', 'timeout'], { env });
    expect(unset.exitCode).toBe(0);
    expect(readProfile(env, 'default')).not.toHaveProperty('timeout');
    const missing = await run(['config', 'get', 'timeout'], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('timeout is not set in profile "default"');
  });

  it('an unknown key is exit 2 and lists the valid ones', async () => {
    const env = configEnv();
    for (const argv of [['config', 'set', 'colour', 'red'], ['config', 'get', 'colour'], ['config', 'unset', 'colour']]) {
      const r = await run(argv, { env });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('"colour"');
      expect(r.stderr).toMatch(/base_url, api_key, default_country, timeout/);
    }
    expect(existsSync(configPath(env))).toBe(false);
  });

  it('bad values are exit 2 and change nothing', async () => {
    const env = configEnv();
    await run(['config', 'set', 'timeout', '30'], { env });
    for (const [k, v] of [['base_url', 'ftp://files.example'], ['default_country', 'India'], ['timeout', '-1'], ['timeout', 'later']]) {
      const r = await run(['config', 'set', k!, v!], { env });
      expect(r.exitCode, `${k}=${v}`).toBe(2);
    }
    expect(readProfile(env, 'default')).toEqual({ timeout: '30' });
  });

  it('list masks the API key in the table and in --json, and names the file on stderr', async () => {
    const env = configEnv();
    await run(['config', 'set', 'base_url', 'http://127.0.0.1:4010'], { env });
    await run(['config', 'set', 'api_key', KEY], { env });

    const table = await run(['config', 'list'], { env });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^base_url\s+http:\/\/127\.0\.0\.1:4010$/m);
    expect(table.stdout).toMatch(/^api_key\s+\*\*\*\*9876$/m);
    expect(table.stderr).toContain(configPath(env));
    expect(table.stdout + table.stderr).not.toContain(KEY);

    const json = await run(['config', 'list', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual({ base_url: 'http://127.0.0.1:4010', api_key: '****9876' });
    expect(json.stderr).toContain(configPath(env));

    const get = await run(['config', 'get', 'api_key'], { env });
    expect(get.stdout).toBe('****9876\n');
    const set = await run(['config', 'set', 'api_key', KEY], { env });
    expect(set.stdout + set.stderr).not.toContain(KEY);
  });

  it('works on the profile chosen by --profile or VOICECTL_PROFILE', async () => {
    const env = configEnv();
    await run(['config', 'set', 'timeout', '5', '--profile', 'ci'], { env });
    await run(['--profile', 'ci', 'config', 'set', 'default_country', 'GB'], { env });
    expect(readProfile(env, 'ci')).toEqual({ timeout: '5', default_country: 'GB' });
    expect(readProfile(env, 'default')).toEqual({});
    const listed = await run(['config', 'list', '--json'], { env: { ...env, VOICECTL_PROFILE: 'ci' } });
    expect(JSON.parse(listed.stdout)).toEqual({ default_country: 'GB', timeout: '5' });
  });

  it('list on a fresh machine says nothing is saved and prints {} with --json', async () => {
    const env = configEnv();
    const r = await run(['config', 'list'], { env });
    expect(r).toMatchObject({ exitCode: 0, stdout: '' });
    expect(r.stderr).toContain('voicectl login');
    expect(JSON.parse((await run(['config', 'ls', '--json'], { env })).stdout)).toEqual({});
  });

  it('unset on a missing file does not create it', async () => {
    const env = configEnv();
    const r = await run(['config', 'unset', 'api_key'], { env });
    expect(r.exitCode).toBe(0);
    expect(existsSync(env.VOICECTL_CONFIG_DIR)).toBe(false);
  });

  it('a broken config file: list and set name it (exit 2), and the file is left alone', async () => {
    const env = configEnv();
    mkdirSync(env.VOICECTL_CONFIG_DIR, { recursive: true });
    writeFileSync(configPath(env), 'not json');
    const list = await run(['config', 'list'], { env });
    expect(list.exitCode).toBe(2);
    expect(list.stderr).toContain(`the config file ${configPath(env)} is not valid JSON`);
    const set = await run(['config', 'set', 'timeout', '5'], { env });
    expect(set.exitCode).toBe(2);
    expect(set.stderr).toContain(env.VOICECTL_CONFIG_DIR);
    expect(readFileSync(configPath(env), 'utf8')).toBe('not json');
  });
});

const env = () => baseEnv(join(dir(), 'voicectl'));

const BINARY_KEY = 'sk_live_e2eSecretValue_wxyz';

describe('voicectl config, the built binary', () => {
  it('list masks the API key (table and --json) and names the file on stderr', async () => {
    const e = env();
    expect((await runCli(['config', 'set', 'api_key', BINARY_KEY], e)).exitCode).toBe(0);
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
    for (const r of [table, json, get]) expect(r.stdout + r.stderr).not.toContain(BINARY_KEY);
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
