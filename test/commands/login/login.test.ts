/**
 * `voicectl login`: in process, where a test can be the person at the terminal, and as
 * the built binary reading the key from stdin, both against a local server.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configPath, readProfile } from '../../../src/config/profiles.js';
import { openStore } from '../../../src/config/store.js';
import { agentsServer, BAD_KEY, GOOD_KEY, NO_SCOPE_KEY, type AgentsServer } from '../../config/harness.js';
import { baseEnv, runCli } from '../../helpers/cli.js';
import { run } from '../../helpers/run.js';
import { tempDirs } from '../../helpers/temp.js';

let server: AgentsServer;
beforeAll(async () => {
  server = await agentsServer();
});
afterAll(() => server.close());

const dir = tempDirs('voicectl-login-');
const configEnv = () => ({ VOICECTL_CONFIG_DIR: join(dir(), 'cfg') });

describe('voicectl login (in process)', () => {
  it('asks for the base URL and the key when a person is there, checks them, and saves them', async () => {
    const env = configEnv();
    const r = await run(['login'], {
      env,
      tty: true,
      answers: [['Base URL', server.url], ['API key', GOOD_KEY]],
    });
    expect(r.stderr).not.toContain(GOOD_KEY);
    expect(r.exitCode).toBe(0);
    expect(readProfile(env, 'default')).toEqual({ base_url: server.url, api_key: GOOD_KEY });
    expect(r.stderr).toContain(`****${GOOD_KEY.slice(-4)}`);
    const check = server.requests.at(-1)!;
    expect(check.method).toBe('GET');
    expect(check.url).toBe('/agents?limit=1');
    expect(check.headers['x-api-key']).toBe(GOOD_KEY);
  });

  it('in accessible mode asks in plain lines, and the key is not shown', async () => {
    const env = { ...configEnv(), VOICECTL_ACCESSIBLE: '1', FORCE_COLOR: undefined };
    const r = await run(['login'], {
      env,
      tty: true,
      answers: [['Base URL', server.url], ['Typing is not shown', GOOD_KEY]],
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain(GOOD_KEY);
    expect(r.stderr).not.toContain('\u001b');
    expect(readProfile(env, 'default')).toEqual({ base_url: server.url, api_key: GOOD_KEY });
  });

  it('offers the current base URL as the default answer', async () => {
    const env = configEnv();
    await (await openStore(env)).update('default', { base_url: server.url });
    const r = await run(['login'], {
      env,
      tty: true,
      answers: [['Base URL', ''], ['API key', GOOD_KEY]],
    });
    expect(r.exitCode).toBe(0);
    expect(readProfile(env, 'default')).toEqual({ base_url: server.url, api_key: GOOD_KEY });
  });

  it('a network error is exit 1 and saves nothing', async () => {
    const env = configEnv();
    // Port 1 on loopback refuses connections; the harness makes retry waits instant.
    const r = await run(['login', '--with-key-stdin', '--base-url', 'http://127.0.0.1:1'], { env, stdin: `${GOOD_KEY}\n` });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Nothing was saved');
    expect(existsSync(configPath(env))).toBe(false);
  });

  it('a base URL without the API (404) is exit 4, saves nothing, and hints at the path prefix', async () => {
    const env = configEnv();
    const r = await run(['login', '--with-key-stdin', '--base-url', `${server.url}/nothing-here`], { env, stdin: GOOD_KEY });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('/v1');
    expect(existsSync(configPath(env))).toBe(false);
  });

  it('401 is exit 3, never echoes the key even when the server does, and saves nothing', async () => {
    const env = configEnv();
    const r = await run(['login', '--with-key-stdin', '--base-url', server.url], { env, stdin: BAD_KEY });
    expect(r.exitCode).toBe(3);
    expect(r.stdout + r.stderr).not.toContain(BAD_KEY);
    expect(r.stderr).toContain(`****${BAD_KEY.slice(-4)}`);
    expect(existsSync(configPath(env))).toBe(false);
  });

  it('403 saves the key with a warning naming agents:read', async () => {
    const env = configEnv();
    const r = await run(['login', '--with-key-stdin', '--base-url', server.url, '--profile', 'limited'], { env, stdin: NO_SCOPE_KEY });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('agents:read');
    expect(readProfile(env, 'limited')).toEqual({ base_url: server.url, api_key: NO_SCOPE_KEY });
  });

  it('without a person, the base URL comes from --base-url, VOICECTL_BASE_URL or the profile, else exit 2 naming --base-url', async () => {
    const env = configEnv();
    const none = await run(['login', '--with-key-stdin'], { env, stdin: GOOD_KEY });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('--base-url');

    const fromEnv = await run(['login', '--with-key-stdin'], { env: { ...env, VOICECTL_BASE_URL: server.url }, stdin: GOOD_KEY });
    expect(fromEnv.exitCode).toBe(0);
    expect(readProfile(env, 'default').base_url).toBe(server.url);

    const fromProfile = await run(['login', '--no-input', '--api-key', GOOD_KEY], { env });
    expect(fromProfile.exitCode).toBe(0);
  });

  it('--with-key-stdin: an empty stdin is exit 2; so is combining it with --api-key', async () => {
    const env = configEnv();
    const empty = await run(['login', '--with-key-stdin', '--base-url', server.url], { env, stdin: '\n' });
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('No API key on stdin');
    const both = await run(['login', '--with-key-stdin', '--base-url', server.url, '--api-key', GOOD_KEY], { env, stdin: GOOD_KEY });
    expect(both.exitCode).toBe(2);
    expect(existsSync(configPath(env))).toBe(false);
  });

  it('under --no-input with no key anywhere, exit 2 naming --with-key-stdin', async () => {
    const r = await run(['login', '--no-input', '--base-url', server.url], { env: configEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--with-key-stdin');
  });

  it.runIf(process.platform !== 'win32')('creates the file with mode 0600', async () => {
    const env = configEnv();
    await run(['login', '--with-key-stdin', '--base-url', server.url], { env, stdin: GOOD_KEY });
    expect(statSync(configPath(env)).mode & 0o777).toBe(0o600);
  });
});

function setup() {
  const configDir = join(dir(), 'voicectl');
  return { env: baseEnv(configDir), file: join(configDir, 'config.json'), configDir };
}

describe('voicectl login --with-key-stdin', () => {
  it('checks the key, saves it with mode 0600, and shows only its last 4 characters', async () => {
    const { env, file, configDir } = setup();
    const r = await runCli(['login', '--with-key-stdin', '--base-url', server.url], env, { input: `${GOOD_KEY}\n` });
    expect(r.exitCode).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(GOOD_KEY);
    expect(r.stderr).toContain(`****${GOOD_KEY.slice(-4)}`);
    expect(r.stderr).toContain(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { default: { base_url: server.url, api_key: GOOD_KEY } } });
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(configDir).mode & 0o777).toBe(0o700);
    }
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', url: '/agents?limit=1' });

    // The saved profile is what the next command uses.
    const list = await runCli(['config', 'list', '--json'], env);
    expect(JSON.parse(list.stdout)).toEqual({ base_url: server.url, api_key: `****${GOOD_KEY.slice(-4)}` });
  });

  it('401: exit 3, the key is not printed, nothing is saved', async () => {
    const { env, file } = setup();
    const r = await runCli(['login', '--with-key-stdin', '--base-url', server.url], env, { input: BAD_KEY });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('401');
    expect(r.stderr).toContain('Nothing was saved');
    expect(r.stdout + r.stderr).not.toContain(BAD_KEY);
    expect(existsSync(file)).toBe(false);
  });

  it('403: the key is valid but lacks agents:read, so it is saved with a warning', async () => {
    const { env, file } = setup();
    const r = await runCli(['login', '--with-key-stdin', '--base-url', server.url, '--profile', 'reporting'], env, { input: NO_SCOPE_KEY });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/warning:.*agents:read/);
    expect(r.stdout + r.stderr).not.toContain(NO_SCOPE_KEY);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.reporting).toEqual({ base_url: server.url, api_key: NO_SCOPE_KEY });
  });

  it('no base URL anywhere: exit 2 naming --base-url, before reading a key', async () => {
    const { env, file } = setup();
    const r = await runCli(['login', '--with-key-stdin'], env, { input: GOOD_KEY });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--base-url');
    expect(existsSync(file)).toBe(false);
  });

  it('an empty stdin is exit 2', async () => {
    const { env } = setup();
    const r = await runCli(['login', '--with-key-stdin', '--base-url', server.url], env, { input: '\n' });
    expect(r.exitCode).toBe(2);
  });
});
