/** `voicectl config list`: the profile's settings, the key masked; in process. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../../helpers/temp.js';
import { run } from '../../helpers/run.js';

const dir = tempDirs('voicectl-config-list-');

describe('config list', () => {
  it('--help exits 0', async () => {
    const r = await run(['config', 'list', '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Usage: voicectl config list|ls');
  });

  it('lists what was set, the API key masked, and says which profile and file', async () => {
    const env = { VOICECTL_CONFIG_DIR: join(dir(), 'cfg') };
    expect((await run(['config', 'set', 'default_country', 'IN'], { env })).exitCode).toBe(0);
    expect((await run(['config', 'set', 'api_key', 'sk_live_Listed_abcd1234'], { env })).exitCode).toBe(0);
    const r = await run(['config', 'list', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as Record<string, string>;
    expect(shown.default_country).toBe('IN');
    expect(shown.api_key).not.toContain('Listed');
    expect(r.stderr).toContain('Profile "default"');
  });

  it('an option it does not take is exit 2', async () => {
    const r = await run(['config', 'list', '--all'], { env: { VOICECTL_CONFIG_DIR: join(dir(), 'cfg') } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown option '--all'");
  });
});
