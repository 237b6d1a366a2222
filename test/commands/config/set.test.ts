/** `voicectl config set KEY VALUE`: checked, normalized and saved in the profile; in process. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { readProfile } from '../../../src/config/profiles.js';
import { run } from '../../helpers/run.js';
import { configFolders } from './folders.js';

const folders = configFolders('voicectl-config-set-');

describe('config set', () => {
  itShowsHelp((args) => run(args), ['config', 'set']);

  it('saves a normalized value in the profile and says where', async () => {
    const env = folders.fresh();
    const r = await run(['config', 'set', 'default_country', 'gb'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Set default_country = GB in profile "default"');
    expect(readProfile(env, 'default')).toEqual({ default_country: 'GB' });
  });

  it('a value that cannot be the setting is exit 2 and saves nothing', async () => {
    const env = folders.fresh();
    const r = await run(['config', 'set', 'calling_hours', 'all day'], { env });
    expect(r.exitCode).toBe(2);
    expect(readProfile(env, 'default')).toEqual({});
  });
});
