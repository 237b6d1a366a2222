/**
 * A client nobody here wrote: the MCP Inspector's command-line mode lists `voicectl mcp`'s
 * tools and calls every read tool, and gets what the CLI's --json prints.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { clientFor, givenAgent, givenFinishedCampaign } from '../helpers/given.js';
import { mcpForFile } from './client.js';

const INSPECTOR = fileURLToPath(new URL('../../node_modules/.bin/mcp-inspector', import.meta.url));

let campaignId: string;
let callId: string;
const w = mcpForFile({
  prefix: 'voicectl-inspector-',
  flags: null,
  files: { 'leads.csv': 'name,phone\nAsha,+91 98123 45670\n' },
  given: async (h, dir) => {
    const api = clientFor(h.sandbox);
    const agent = await givenAgent(api, { name: 'Priya - renewals' });
    const campaign = await givenFinishedCampaign(api, { agentId: agent.id, contacts: 2, name: 'Renewals' });
    campaignId = campaign.id;
    callId = (await api('GET', `/calls?campaign_id=${campaignId}&limit=1`)).body.calls[0].call_id;
    expect((await h.run(['pull', join(dir, 'account')])).exitCode).toBe(0);
  },
});
const dir = w.dir;

async function inspector(args: string[]): Promise<any> {
  const r = await execa(INSPECTOR, ['--cli', process.execPath, BIN, 'mcp', ...args], { cwd: dir, env: w.h.env, extendEnv: false, reject: false, timeout: 60_000 });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout));
}

const call = (tool: string, args: Record<string, unknown> = {}) =>
  inspector(['--method', 'tools/call', '--tool-name', tool, ...Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`])]);

async function cliJson(args: string[]): Promise<any> {
  const r = await w.h.run([...args, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('the MCP Inspector (--cli) against voicectl mcp', () => {
  it('lists the read tools with their annotations', async () => {
    const { tools } = await inspector(['--method', 'tools/list']);
    expect(tools.map((t: any) => t.name)).toEqual(['agent_list', 'agent_get', 'voice_list', 'campaign_list', 'campaign_get', 'call_list', 'call_get', 'campaign_report', 'contacts_validate', 'plan', 'campaign_run_forecast']);
    for (const t of tools) expect(t.annotations.readOnlyHint, t.name).toBe(true);
  }, 60_000);

  it('calls every read tool and gets the CLI\'s --json', async () => {
    expect((await call('agent_list')).structuredContent.items).toEqual(await cliJson(['agent', 'list', '--limit', '20']));
    expect((await call('agent_get', { agent: 'Priya - renewals' })).structuredContent).toEqual(await cliJson(['agent', 'get', 'Priya - renewals']));
    expect((await call('voice_list', { language: 'hi-IN', limit: 100 })).structuredContent.items).toEqual(await cliJson(['voice', 'list', '--language', 'hi-IN']));
    expect((await call('campaign_list')).structuredContent.items).toEqual(await cliJson(['campaign', 'list', '--limit', '20']));
    expect((await call('campaign_get', { campaign_id: campaignId })).structuredContent).toEqual(await cliJson(['campaign', 'get', campaignId]));
    expect((await call('call_list', { campaign_id: campaignId })).structuredContent.items).toEqual(await cliJson(['call', 'list', '--campaign', campaignId, '--limit', '20']));
    expect((await call('call_get', { call_id: callId })).structuredContent).toEqual(await cliJson(['call', 'get', callId]));
    const report = (await call('campaign_report', { campaign_ids: [campaignId] })).structuredContent;
    expect({ ...report, generated_at: 0 }).toEqual({ ...(await cliJson(['campaign', 'report', campaignId, '--format', 'json'])), generated_at: 0 });
    expect((await call('contacts_validate', { path: 'leads.csv' })).structuredContent).toEqual(await cliJson(['contacts', 'validate', join(dir, 'leads.csv')]));
    expect((await call('plan', { dir: 'account' })).structuredContent).toEqual(await cliJson(['plan', join(dir, 'account')]));
  }, 180_000);
});
