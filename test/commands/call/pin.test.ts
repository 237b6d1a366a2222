/** `voicectl call pin`: calls written as fixtures for `calls check --from-file`, the built binary against the sandbox. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';
import { allCalls, givenFinishedCampaign } from '../../helpers/given.js';

const h = sharedHarness();

describe('call pin', () => {
  itShowsHelp((args) => h.run(args), ['call', 'pin']);

  it('writes each call into the folder, names and numbers replaced with --redact', async () => {
    const campaign = await givenFinishedCampaign(h.api, { contacts: 2 });
    const calls = await allCalls(h.api, `campaign_id=${campaign.id}`);
    const to = join(h.dir, 'pinned');
    const r = await h.run(['call', 'pin', ...calls.map((c) => c.call_id), '--to', to, '--redact']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Pinned ${calls.length} calls (redacted)`);
    const written = readdirSync(to).map((f) => readFileSync(join(to, f), 'utf8')).join('\n');
    for (const c of calls) expect(written).not.toContain(String(c.phone_number));
  });

  it('a call that does not exist is exit 4, naming it, and nothing is written', async () => {
    const to = join(h.dir, 'never');
    const r = await h.run(['call', 'pin', 'call_nowhere', '--to', to]);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('call_nowhere');
    expect(existsSync(to) ? readdirSync(to) : []).toEqual([]);
  });
});
