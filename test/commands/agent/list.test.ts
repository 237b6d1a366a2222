/** `voicectl agent list`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { refusedBeforeRequest, sharedHarness } from '../../helpers/cli.js';
import { givenAgent } from '../../helpers/given.js';

const h = sharedHarness();

describe('agent list', () => {
  itShowsHelp((args) => h.run(args), ['agent', 'list']);

  it('lists the agents the service holds, by name and id', async () => {
    const a = await givenAgent(h.api, { name: 'Listed Priya' });
    const r = await h.run(['agent', 'list', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const agents = JSON.parse(r.stdout) as Array<{ id: string; name: string }>;
    expect(agents.find((x) => x.id === a.id)?.name).toBe('Listed Priya');
    const table = await h.run(['agents', 'ls', '-o', 'table']);
    expect(table.stdout).toContain('Listed Priya');
  });

  it('a page size out of range is exit 2, before any request', async () => {
    await refusedBeforeRequest(h, ['agent', 'list', '--limit', '500'], 2);
  });
});
