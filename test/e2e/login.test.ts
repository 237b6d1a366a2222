/** `voicectl login --with-key-stdin`, run as the built binary against a local server. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';
import { agentsServer, BAD_KEY, GOOD_KEY, NO_SCOPE_KEY, tempDir, type AgentsServer } from '../config/harness.js';

let server: AgentsServer;
beforeAll(async () => {
  server = await agentsServer();
});
afterAll(() => server.close());

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

function setup() {
  const t = tempDir('voicectl-e2e-login-');
  cleanups.push(t.remove);
  const configDir = join(t.dir, 'voicectl');
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
