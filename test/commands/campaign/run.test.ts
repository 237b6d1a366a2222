/** `voicectl campaign run`: its help, a dry run's forecast against the sandbox, and what it refuses (exit 2). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedBeforeRequest, sharedHarness } from '../../helpers/cli.js';
import { givenAgent } from '../../helpers/given.js';

const h = sharedHarness();
const posts = () => h.sandbox.requests.filter((q) => q.method === 'POST').length;

describe('campaign run', () => {
  it('--help exits 0', async () => {
    const r = await h.run(['campaign', 'run', '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('--campaign-prompt');
  });

  it('--dry-run prints the forecast and the wave plan, and sends nothing', async () => {
    const agent = await givenAgent(h.api, { name: 'Run Priya' });
    const file = join(h.dir, 'dry.json');
    writeFileSync(file, JSON.stringify([{ phone_number: '+919800000001', name: 'A' }, { phone_number: '+919800000002', name: 'B' }]));
    const before = posts();
    const r = await h.run(['campaign', 'run', '--name', 'Dry', '--agent', agent.id, '--contacts', file, '--wave-size', '1', '--campaign-prompt', 'Mention the offer.', '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain('Forecast for "Dry": 2 contacts to dial.');
    expect(posts()).toBe(before);
  });

  it('refuses a run without an agent (exit 2), before any request', async () => {
    await refusedBeforeRequest(h, ['campaign', 'run', '--name', 'No agent', '--csv', join(h.dir, 'none.csv')], 2, '--agent is required');
  });
});
