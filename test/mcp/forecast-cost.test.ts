/**
 * campaign_run_forecast with a rate card: the cost range of the first attempts, in integer
 * minor units beside their text, as `voicectl campaign run --dry-run --rate-card` prints it.
 * A country the card does not price is counted under unpriced, never as 0.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientFor, givenAgent } from '../helpers/given.js';
import { mcpForFile, textOf } from './client.js';

const w = mcpForFile({
  prefix: 'voicectl-mcp-cost-',
  files: {
    'leads.csv': 'name,phone\nAsha,+91 98123 45670\nRavi,+91 98123 45671\nJoe,+1 212 555 0123\n',
    'rates.yaml': 'currency: INR\nrates:\n  IN: {per_minute: 1.20, connection: 0.10}\n',
    'bad-rates.yaml': 'currency: rupees\nrates: {}\n',
  },
  given: async (h) => void (await givenAgent(clientFor(h.sandbox), { name: 'Sales desk' })),
});

const forecast = (more: Record<string, unknown>) => w.mcp.client.callTool({ name: 'campaign_run_forecast', arguments: { name: 'Renewals', agent: 'Sales desk', csv: 'leads.csv', ...more } });

describe('campaign_run_forecast with rate_card', () => {
  it('shows the cost range of the first attempts, the hand-computed figure, and names the unpriced country', async () => {
    const r = await forecast({ rate_card: 'rates.yaml' });
    expect(r.isError, textOf(r)).toBeFalsy();
    const cost = (r.structuredContent as any).forecast.cost;
    // A new agent has no calls: each dial is taken to connect for 2 minutes (and the answer says so).
    // Low: 2 calls x (0.10 + 1.20 x 2 min) = INR 5.00; high: each billed a minute more, 2 x (0.10 + 1.20 x 3) = INR 7.40.
    expect(cost).toMatchObject({ currency: 'INR', low_minor_units: 500, high_minor_units: 740, low: '5.00', high: '7.40', unpriced: { US: 1 } });
    expect(cost.assumed).toMatch(/no call history/);
    expect(Object.values(cost.unpriced)).not.toContain(0);
  });

  it('is what the CLI prints for the same rate card', async () => {
    const r = await forecast({ rate_card: 'rates.yaml' });
    const cli = await w.h.run(['campaign', 'run', '--dry-run', '--json', '--name', 'Renewals', '--agent', 'Sales desk', '--csv', join(w.dir, 'leads.csv'), '--rate-card', join(w.dir, 'rates.yaml')]);
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect((r.structuredContent as any).forecast.cost).toEqual(JSON.parse(cli.stdout).forecast.cost);
  });

  it('without a rate card, no cost; a bad one is refused in the CLI\'s words', async () => {
    const none = await forecast({});
    expect((none.structuredContent as any).forecast.cost).toBeUndefined();
    const bad = await forecast({ rate_card: 'bad-rates.yaml' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/bad-rates\.yaml: currency must be an ISO 4217 code[^]*exit code 2/);
  });
});
