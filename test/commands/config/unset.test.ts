/** `voicectl config unset KEY`: the setting leaves the profile; in process. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { readProfile } from '../../../src/config/profiles.js';
import { run } from '../../helpers/run.js';
import { configFolders } from './folders.js';

const folders = configFolders('voicectl-config-unset-');

describe('config unset', () => {
  itShowsHelp((args) => run(args), ['config', 'unset']);

  it('removes the one setting and keeps the others', async () => {
    const env = await folders.holding({ default_country: 'IN', timeout: '30' });
    const r = await run(['config', 'unset', 'timeout'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readProfile(env, 'default')).toEqual({ default_country: 'IN' });
  });

  it('an unknown key is exit 2', async () => {
    const r = await run(['config', 'unset', 'nonsense'], { env: folders.fresh() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Unknown setting "nonsense"');
  });
});
