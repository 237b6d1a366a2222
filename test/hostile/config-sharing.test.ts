/**
 * One config file, several processes: every read-modify-write holds the file's lock, so
 * ten parallel `config set` or `login --with-key-stdin` runs keep all ten profiles. A
 * config file that cannot be used is named in every command's error (exit 2).
 */
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, harness, runCli, type Harness } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

let h: Harness;
const dirs: TempDir[] = [];
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.close();
  for (const d of dirs) d.remove();
});

function configDir(): { dir: string; file: string; env: Record<string, string> } {
  const d = tempDir();
  dirs.push(d);
  return { dir: d.dir, file: join(d.dir, 'config.json'), env: baseEnv(d.dir) };
}

const profiles = (file: string) => JSON.parse(readFileSync(file, 'utf8')).profiles as Record<string, Record<string, string>>;
const TEN = Array.from({ length: 10 }, (_, i) => `p${i}`);

describe('processes sharing the config file', () => {
  it('ten parallel `config set --profile pN` keep all ten profiles', async () => {
    const { file, env } = configDir();
    const runs = await Promise.all(TEN.map((p) => runCli(['config', 'set', '--profile', p, 'base_url', `https://${p}.example/v1`], env)));
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const saved = profiles(file);
    expect(Object.keys(saved).sort()).toEqual(TEN);
    for (const p of TEN) expect(saved[p]!.base_url).toBe(`https://${p}.example/v1`);
  });

  it('ten parallel `login --with-key-stdin` against the sandbox keep all ten profiles', async () => {
    const { file, env } = configDir();
    const runs = await Promise.all(TEN.map((p) => runCli(['login', '--with-key-stdin', '--profile', p, '--base-url', h.sandbox.url], env, { input: `${h.sandbox.apiKey}\n` })));
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const saved = profiles(file);
    expect(Object.keys(saved).sort()).toEqual(TEN);
    for (const p of TEN) expect(saved[p]).toEqual({ base_url: h.sandbox.url, api_key: h.sandbox.apiKey });
  });

  it('parallel writes of different keys to one profile keep every key', async () => {
    const { file, env } = configDir();
    const keys: Array<[string, string]> = [['base_url', 'https://x.example/v1'], ['default_country', 'IN'], ['timeout', '45'], ['webhook_endpoint', 'ep_1']];
    const runs = await Promise.all(keys.map(([k, v]) => runCli(['config', 'set', k, v], env)));
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    expect(profiles(file).default).toEqual(Object.fromEntries(keys));
  });

  it('a lock left by a process that died is taken over once stale', async () => {
    const { dir, file, env } = configDir();
    mkdirSync(join(dir, 'config.json.lock'));
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'config.json.lock'), old, old);
    const r = await runCli(['config', 'set', 'timeout', '12'], env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(profiles(file).default!.timeout).toBe('12');
  });
});

describe('a config file that cannot be used', () => {
  const commands = [
    ['agent', 'list'],
    ['call', 'list'],
    ['config', 'list'],
    ['config', 'get', 'base_url'],
    ['config', 'set', 'timeout', '5'],
  ];

  it('not valid JSON: every command names the file and the cause, exit 2, the file untouched', async () => {
    const { file, env } = configDir();
    writeFileSync(file, '{"profiles": {"default": {"base_url": "https://api.example.com/v1",');
    for (const args of commands) {
      const r = await runCli(args, env);
      expect(r.stderr, args.join(' ')).toContain(`the config file ${file} is not valid JSON: `);
      expect(r.stderr).not.toContain('No service address');
      expect(r.exitCode, args.join(' ')).toBe(2);
    }
    const login = await runCli(['login', '--with-key-stdin', '--base-url', h.sandbox.url], env, { input: h.sandbox.apiKey });
    expect(login.stderr).toContain(`the config file ${file} is not valid JSON`);
    expect(login.exitCode).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('{"profiles": {"default": {"base_url": "https://api.example.com/v1",');
  });

  it('unreadable (a folder where the file should be): named with the cause', async () => {
    const { file, env } = configDir();
    mkdirSync(file);
    const r = await runCli(['agent', 'list'], env);
    expect(r.stderr).toContain(`the config file ${file} cannot be read: it is a folder (EISDIR)`);
    expect(r.exitCode).toBe(2);
  });

  it('valid JSON of the wrong shape: named too', async () => {
    const { file, env } = configDir();
    writeFileSync(file, JSON.stringify({ profiles: ['default'] }));
    const r = await runCli(['agent', 'list'], env);
    expect(r.stderr).toContain(`the config file ${file} has a "profiles" entry that is not an object`);
    expect(r.exitCode).toBe(2);
  });
});
