/** `voicectl kb list`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';
import { givenKbItem } from '../../helpers/given.js';

const h = sharedHarness();

describe('kb list', () => {
  itShowsHelp((args) => h.run(args), ['kb', 'list']);

  it('lists the items, and only a folder\'s with --folder', async () => {
    const top = await givenKbItem(h.sandbox, h.sandbox.apiKey);
    const inFolder = await givenKbItem(h.sandbox, h.sandbox.apiKey, 'policies');
    const all = await h.run(['kb', 'list', '--json']);
    expect(all.exitCode, all.stderr).toBe(0);
    expect(all.stdout).toContain(top.item.id);
    const folder = await h.run(['kb', 'ls', '--folder', 'policies', '--json']);
    expect(folder.exitCode, folder.stderr).toBe(0);
    expect(folder.stdout).toContain(inFolder.item.id);
    expect(folder.stdout).not.toContain(top.item.id);
  });

  it('without a key is exit 3', async () => {
    const r = await h.run(['kb', 'list'], { env: { VOICECTL_API_KEY: 'sk_wrong_key' } });
    expect(r.exitCode).toBe(3);
  });
});
