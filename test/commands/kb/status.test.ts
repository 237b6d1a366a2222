/** `voicectl kb status JOB`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';
import { givenKbItem } from '../../helpers/given.js';

const h = sharedHarness();

describe('kb status', () => {
  itShowsHelp((args) => h.run(args), ['kb', 'status']);

  it('--wait follows an indexing job until it is completed', async () => {
    const { job_id } = await givenKbItem(h.sandbox, h.sandbox.apiKey);
    const r = await h.run(['kb', 'status', job_id, '--wait', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('completed');
  });

  it('a job that does not exist is exit 4', async () => {
    const r = await h.run(['kb', 'status', 'job_nowhere']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('job_nowhere');
  });
});
