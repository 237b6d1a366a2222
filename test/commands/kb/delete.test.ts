/** `voicectl kb delete`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';
import { givenKbItem } from '../../helpers/given.js';

const h = sharedHarness();

describe('kb delete', () => {
  itShowsHelp((args) => h.run(args), ['kb', 'delete']);

  it('deletes an item with --yes; it is gone from the list', async () => {
    const { item } = await givenKbItem(h.sandbox, h.sandbox.apiKey);
    const r = await h.run(['kb', 'rm', item.id, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const list = await h.run(['kb', 'list', '--json']);
    expect(list.stdout).not.toContain(item.id);
  });

  it('an item that does not exist is exit 4, with where to look', async () => {
    const r = await h.run(['kb', 'delete', 'kb_nowhere', '--yes']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('voicectl kb list');
  });
});
