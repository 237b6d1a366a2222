/** `voicectl agent delete`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';
import { givenAgent } from '../../helpers/given.js';

const h = sharedHarness();
const deletes = (id: string) => h.sandbox.requests.filter((q) => q.method === 'DELETE' && q.path === `/agents/${id}`).length;

describe('agent delete', () => {
  itShowsHelp((args) => h.run(args), ['agent', 'delete']);

  it('asks first: off a terminal it needs --yes; with it the agent is gone', async () => {
    const a = await givenAgent(h.api, { name: 'Deleted Meera' });
    const refused = await h.run(['agent', 'delete', a.id]);
    expect(refused.exitCode).toBe(2);
    expect(deletes(a.id)).toBe(0);
    const r = await h.run(['agent', 'rm', a.id, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(deletes(a.id)).toBe(1);
    expect((await h.run(['agent', 'get', a.id])).exitCode).toBe(4);
  });

  it('an agent that does not exist is exit 4', async () => {
    const r = await h.run(['agent', 'delete', 'no-such-agent', '--yes']);
    expect(r.exitCode).toBe(4);
  });
});
