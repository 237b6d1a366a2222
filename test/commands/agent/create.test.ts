/** `voicectl agent create`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';

const h = sharedHarness();
const posts = () => h.sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/agents');

describe('agent create', () => {
  itShowsHelp((args) => h.run(args), ['agent', 'create']);

  it('creates an agent from flags, the language taken from the voice', async () => {
    const r = await h.run(['agent', 'create', '--name', 'Created Priya', '--voice', 'Priya', '--greeting', 'Namaste!',
      '--call-purpose', 'renewals', '--prompt', 'Be brief.', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const agent = JSON.parse(r.stdout) as { id: string; name: string };
    expect(agent.name).toBe('Created Priya');
    expect(posts().at(-1)!.body).toMatchObject({ name: 'Created Priya', voice_name: 'Priya', greeting: 'Namaste!' });
  });

  it('a missing field is exit 2 and nothing is sent', async () => {
    const before = posts().length;
    const r = await h.run(['agent', 'create', '--name', 'Half']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Missing --voice');
    expect(posts().length).toBe(before);
  });
});
