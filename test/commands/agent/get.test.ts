/** `voicectl agent get`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';
import { givenAgent } from '../../helpers/given.js';

const h = sharedHarness();

describe('agent get', () => {
  itShowsHelp((args) => h.run(args), ['agent', 'get']);

  it('finds an agent by id or by exact name', async () => {
    const a = await givenAgent(h.api, { name: 'Gotten Kabir' });
    const byId = await h.run(['agent', 'get', a.id, '--json']);
    expect(byId.exitCode, byId.stderr).toBe(0);
    expect(JSON.parse(byId.stdout).name).toBe('Gotten Kabir');
    const byName = await h.run(['agent', 'get', 'Gotten Kabir', '--json']);
    expect(JSON.parse(byName.stdout).id).toBe(a.id);
  });

  it('an agent that does not exist is exit 4, naming it', async () => {
    const r = await h.run(['agent', 'get', 'Nobody At All']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('Nobody At All');
  });
});
