/** `voicectl config list`: the profile's settings, the key masked; in process. */
import { describe, expect, it } from 'vitest';
import { run } from '../../helpers/run.js';
import { configFolders } from './folders.js';

const folders = configFolders('voicectl-config-list-');

describe('config list', () => {
  it('--help exits 0', async () => {
    const r = await run(['config', 'list', '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Usage: voicectl config list|ls');
  });

  it('lists what was set, the API key masked, and says which profile and file', async () => {
    const env = await folders.holding({ default_country: 'IN', api_key: 'sk_live_Listed_abcd1234' });
    const r = await run(['config', 'list', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as Record<string, string>;
    expect(shown.default_country).toBe('IN');
    expect(shown.api_key).not.toContain('Listed');
    expect(r.stderr).toContain('Profile "default"');
  });

  it('an option it does not take is exit 2', async () => {
    const r = await run(['config', 'list', '--all'], { env: folders.fresh() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown option '--all'");
  });
});
