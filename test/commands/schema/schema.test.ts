/** `voicectl schema`: the JSON Schemas of voicectl.yaml and of a run policy, printed whole; in process. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { run } from '../../helpers/run.js';

describe('schema', () => {
  itShowsHelp((args) => run(args), ['schema']);

  it('prints the schema of voicectl.yaml, and with --run-policy that of a policy file', async () => {
    const account = await run(['schema']);
    expect(account.exitCode, account.stderr).toBe(0);
    expect(JSON.parse(account.stdout).title).toBe('voicectl.yaml');
    const policy = await run(['schema', '--run-policy']);
    const schema = JSON.parse(policy.stdout) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toContain('wave_size');
  });

  it('an unknown option is exit 2', async () => {
    const r = await run(['schema', '--yaml']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown option '--yaml'");
  });
});
