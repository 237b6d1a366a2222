/** `voicectl config unset KEY`: the setting leaves the profile; in process. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { readProfile } from '../../../src/config/profiles.js';
import { tempDirs } from '../../helpers/temp.js';
import { run } from '../../helpers/run.js';

const dir = tempDirs('voicectl-config-unset-');

describe('config unset', () => {
  itShowsHelp((args) => run(args), ['config', 'unset']);

  it('removes the one setting and keeps the others', async () => {
    const env = { VOICECTL_CONFIG_DIR: join(dir(), 'cfg') };
    await run(['config', 'set', 'default_country', 'IN'], { env });
    await run(['config', 'set', 'timeout', '30'], { env });
    const r = await run(['config', 'unset', 'timeout'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readProfile(env, 'default')).toEqual({ default_country: 'IN' });
  });

  it('an unknown key is exit 2', async () => {
    const r = await run(['config', 'unset', 'nonsense'], { env: { VOICECTL_CONFIG_DIR: join(dir(), 'cfg') } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Unknown setting "nonsense"');
  });
});
