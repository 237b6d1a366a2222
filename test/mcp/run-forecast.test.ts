/**
 * The campaign_run_forecast tool through the SDK's Client over stdio: listed without
 * --allow-write as a read tool, and answering what `voicectl campaign run --dry-run --json`
 * prints for the same input, against the sandbox, with no journal left behind.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientFor, givenAgent } from '../helpers/given.js';
import { mcpForFile, textOf } from './client.js';

/** A one-hour window in India (UTC+05:30) that is closed now, so the waves' times do not move with the clock. */
function closedWindow(now = new Date()): string {
  const hour = new Date(now.getTime() + 330 * 60_000).getUTCHours();
  let start = (hour + 2) % 24;
  if (start > 20) start = 2;
  const hh = (n: number) => String(n).padStart(2, '0');
  return `${hh(start)}:00-${hh(start + 1)}:00`;
}

const w = mcpForFile({
  prefix: 'voicectl-mcp-run-',
  files: { 'leads.csv': 'name,phone\nAsha,+91 98123 45670\nRavi,+91 98123 45671\nMeena,+91 98123 45672\n' },
  given: async (h) => void (await givenAgent(clientFor(h.sandbox), { name: 'Sales desk' })),
});
const dir = w.dir;

describe('campaign_run_forecast', () => {
  it('is a read tool, listed without --allow-write', async () => {
    const tool = (await w.mcp.client.listTools()).tools.find((t) => t.name === 'campaign_run_forecast');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(tool?.outputSchema?.type).toBe('object');
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['name', 'agent', 'csv', 'rows', 'from_campaign', 'calling_hours', 'wave_size', 'daily_cap', 'attempts', 'retry_after', 'retry_on', 'deadline', 'exclude']));
  });

  it('answers what `campaign run --dry-run --json` prints, from a path or inline rows, and writes no journal', async () => {
    const window = closedWindow();
    const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10) + 'T00:00:00Z';
    const cli = await w.h.run(['campaign', 'run', '--dry-run', '--json', '--name', 'Renewals', '--agent', 'Sales desk', '--csv', join(dir, 'leads.csv'),
      '--calling-hours', '09:00-21:00', '--calling-hours', `IN=${window}`, '--wave-size', '1', '--attempts', '2', '--retry-after', '3h', '--retry-on', 'no_answer',
      '--deadline', deadline]);
    expect(cli.exitCode, cli.stderr).toBe(0);
    const expected = JSON.parse(cli.stdout);
    expect(expected.forecast.contacts).toBe(3);

    const common = { name: 'Renewals', agent: 'Sales desk', calling_hours: ['09:00-21:00', `IN=${window}`], wave_size: 1, attempts: 2, retry_after: '3h', retry_on: ['no_answer'], deadline };
    const fromPath = await w.mcp.client.callTool({ name: 'campaign_run_forecast', arguments: { ...common, csv: 'leads.csv' } });
    expect(fromPath.isError, textOf(fromPath)).toBeFalsy();
    expect(fromPath.structuredContent).toEqual(expected);
    const fromRows = await w.mcp.client.callTool({ name: 'campaign_run_forecast', arguments: { ...common,
      rows: [{ name: 'Asha', phone: '+91 98123 45670' }, { name: 'Ravi', phone: '+91 98123 45671' }, { name: 'Meena', phone: '+91 98123 45672' }] } });
    expect(fromRows.structuredContent).toEqual(expected);

    expect(readdirSync(dir).sort()).toEqual(['leads.csv']);
  });

  it('refuses a request with no contacts or two sources, and keeps serving', async () => {
    const none = await w.mcp.client.callTool({ name: 'campaign_run_forecast', arguments: { name: 'R', agent: 'Sales desk' } });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/exactly one of csv, contacts, rows or from_campaign/);
    const missing = await w.mcp.client.callTool({ name: 'campaign_run_forecast', arguments: { name: 'R', agent: 'Sales desk', csv: 'nope.csv' } });
    expect(missing.isError).toBe(true);
    expect((await w.mcp.client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
