/** `voicectl config get KEY`: one setting's value on stdout, alone; in process. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { run } from '../../helpers/run.js';
import { configFolders } from './folders.js';

const folders = configFolders('voicectl-config-get-');

describe('config get', () => {
  itShowsHelp((args) => run(args), ['config', 'get']);

  it('prints the value alone, for a script', async () => {
    const env = await folders.holding({ calling_hours: '10:00-19:00' });
    const r = await run(['config', 'get', 'calling_hours'], { env });
    expect(r).toMatchObject({ exitCode: 0, stdout: '10:00-19:00\n' });
  });

  it('an unknown key is exit 2, listing the valid ones', async () => {
    const r = await run(['config', 'get', 'colour'], { env: folders.fresh() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Unknown setting "colour"');
    expect(r.stderr).toContain('default_country');
  });
});
