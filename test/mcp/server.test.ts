/**
 * `voicectl mcp` against a sandbox, through the SDK's Client over stdio: the tool list,
 * each read tool beside the CLI's --json for the same request, the resources, malformed
 * arguments, and what an answer must never hold.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientFor, givenAgent, givenFinishedCampaign } from '../helpers/given.js';
import { mcpForFile, startMcp, textOf } from './client.js';

let campaign: any;
let callId: string;
const answers: string[] = [];
const w = mcpForFile({
  prefix: 'voicectl-mcp-',
  env: { VOICECTL_WEBHOOK_SECRET: 'whsec_do_not_show_me' },
  files: { 'leads.csv': 'name,phone\nAsha,+91 98123 45670\nRavi,12\nAsha again,+91 98123 45670\n' },
  given: async (h, dir) => {
    const api = clientFor(h.sandbox);
    const agent = await givenAgent(api, { name: 'Priya - renewals' });
    await givenAgent(api, { name: 'Sales desk' });
    campaign = await givenFinishedCampaign(api, { agentId: agent.id, contacts: 4, name: 'Renewals' });
    callId = (await api('GET', `/calls?campaign_id=${campaign.id}&limit=1`)).body.calls[0].call_id;
    expect((await h.run(['pull', join(dir, 'account')])).exitCode).toBe(0);
  },
});
const dir = w.dir;

async function call(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = await w.mcp.client.callTool({ name, arguments: args });
  answers.push(JSON.stringify(r));
  return r;
}

async function cliJson(args: string[]): Promise<any> {
  const r = await w.h.run([...args, '--json'], {});
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('voicectl mcp', () => {
  it('lists read tools only, each with schemas and annotations', async () => {
    const { tools } = await w.mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['agent_list', 'agent_get', 'voice_list', 'campaign_list', 'campaign_get', 'call_list', 'call_get', 'campaign_report', 'contacts_validate', 'plan', 'campaign_run_forecast']);
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(t.description, t.name).toBeTruthy();
    }
  });

  it('adds write tools with --allow-write and the launch with --allow-launch; never a delete', async () => {
    const write = await startMcp(['--allow-write'], w.h.env, dir);
    const both = await startMcp(['--allow-write', '--allow-launch'], w.h.env, dir);
    try {
      const names = (await write.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['agent_create', 'agent_update', 'campaign_create', 'campaign_redial', 'kb_upload']));
      expect(names).not.toContain('campaign_launch');
      const all = (await both.client.listTools()).tools;
      const launch = all.find((t) => t.name === 'campaign_launch')!;
      expect(launch.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
      for (const t of all.filter((x) => ['agent_create', 'campaign_create', 'campaign_redial', 'kb_upload'].includes(x.name))) {
        expect(t.annotations, t.name).toMatchObject({ readOnlyHint: false, idempotentHint: false });
      }
      expect(all.map((t) => t.name).filter((n) => /delete|remove/.test(n))).toEqual([]);
    } finally {
      await write.close();
      await both.close();
    }
  });

  it('answers what the CLI\'s --json prints for the same request', async () => {
    const first = await call('agent_list', { limit: 1 });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent.items).toEqual(await cliJson(['agent', 'list', '--limit', '1']));
    const second = await call('agent_list', { limit: 1, cursor: first.structuredContent.next_cursor });
    expect(second.structuredContent.items).toEqual(await cliJson(['agent', 'list', '--limit', '1', '--offset', '1']));
    expect(second.structuredContent.items).toHaveLength(1);
    expect(second.structuredContent.next_cursor).toBeNull();
    expect(JSON.parse(textOf(first))).toEqual(first.structuredContent);

    expect((await call('agent_get', { agent: 'Sales desk' })).structuredContent).toEqual(await cliJson(['agent', 'get', 'Sales desk']));
    expect((await call('voice_list', { language: 'hi-IN', limit: 100 })).structuredContent.items).toEqual(await cliJson(['voice', 'list', '--language', 'hi-IN']));
    expect((await call('campaign_list', {})).structuredContent.items).toEqual(await cliJson(['campaign', 'list', '--limit', '20']));
    const got = (await call('campaign_get', { campaign_id: campaign.id })).structuredContent;
    expect(got).toEqual(await cliJson(['campaign', 'get', campaign.id]));
    expect(Object.values(got.contacts_by_status).reduce((a: number, b: any) => a + b, 0)).toBe(4);
    const calls = await call('call_list', { campaign_id: campaign.id, since: '2000-01-01T00:00:00Z', limit: 3 });
    expect(calls.structuredContent.items).toEqual(await cliJson(['call', 'list', '--campaign', campaign.id, '--since', '2000-01-01T00:00:00Z', '--limit', '3']));
    expect(calls.structuredContent.next_cursor).not.toBeNull();
    expect((await call('call_get', { call_id: callId })).structuredContent).toEqual(await cliJson(['call', 'get', callId]));
    const report = (await call('campaign_report', { campaign_ids: [campaign.id] })).structuredContent;
    const cliReport = await cliJson(['campaign', 'report', campaign.id, '--format', 'json']);
    expect({ ...report, generated_at: 0 }).toEqual({ ...cliReport, generated_at: 0 });
    expect((await call('plan', { dir: 'account' })).structuredContent).toEqual(await cliJson(['plan', join(dir, 'account')]));
  });

  it('validates contacts from a path or inline rows, as `contacts validate --json`', async () => {
    const cli = await w.h.run(['contacts', 'validate', join(dir, 'leads.csv'), '--json']);
    expect(cli.exitCode).toBe(2);
    const byPath = await call('contacts_validate', { path: 'leads.csv' });
    expect(byPath.isError).toBeFalsy();
    expect(byPath.structuredContent).toEqual(JSON.parse(cli.stdout));
    const inline = await call('contacts_validate', { rows: [{ name: 'Asha', phone: '+91 98123 45670' }, { name: 'Ravi', phone: 12 }, { name: 'Asha again', phone: '+91 98123 45670' }] });
    expect(inline.structuredContent).toEqual(JSON.parse(cli.stdout));
  });

  it('serves the campaign report as markdown and the account file\'s schema', async () => {
    const md = await w.mcp.client.readResource({ uri: `voicectl://campaigns/${campaign.id}/report` });
    const cli = await w.h.run(['campaign', 'report', campaign.id, '--format', 'md']);
    const strip = (s: string) => s.replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?Z?( UTC)?/g, 'T');
    expect(strip((md.contents[0] as { text: string }).text).trimEnd()).toBe(strip(cli.stdout).trimEnd());
    const schema = await w.mcp.client.readResource({ uri: 'voicectl://schema/voicectl.yaml' });
    expect((schema.contents[0] as { text: string }).text.trimEnd()).toBe((await w.h.run(['schema'])).stdout.trimEnd());
    const templates = await w.mcp.client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain('voicectl://campaigns/{id}/report');
  });

  it('answers failures as tool errors with the CLI\'s message, and malformed arguments never stop it', async () => {
    const missing = await call('campaign_get', { campaign_id: 'no-such-campaign' });
    expect(missing.isError).toBe(true);
    const cli = await w.h.run(['campaign', 'get', 'no-such-campaign']);
    expect(textOf(missing)).toContain(cli.stderr.trim());
    expect(textOf(missing)).toContain('exit code 4');

    const bad: Array<[string, unknown]> = [
      ['agent_list', { limit: 'ten' }],
      ['agent_list', { limit: 100_000 }],
      ['agent_list', { cursor: 'not-a-cursor' }],
      ['campaign_get', {}],
      ['campaign_get', { campaign_id: 42 }],
      ['call_get', { call_id: '--help' }],
      ['campaign_report', { campaign_ids: [] }],
      ['contacts_validate', {}],
      ['contacts_validate', { path: 'leads.csv', rows: [{ phone: '1' }] }],
      ['contacts_validate', { path: 'no/such/file.csv' }],
      ['voice_list', null],
      ['no_such_tool', {}],
      ['agent_list', 'just a string'],
    ];
    for (const [name, args] of bad) {
      const r = await w.mcp.client.callTool({ name, arguments: args as Record<string, unknown> }).catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
      expect(r.isError, `${name} ${JSON.stringify(args)}: ${textOf(r)}`).toBe(true);
      expect(textOf(r), name).not.toMatch(/\n\s+at /);
    }
    const still = await call('agent_list', {});
    expect(still.isError).toBeFalsy();
    expect(still.structuredContent.items.length).toBe(2);
  });

  it('never answers the key or the webhook secret', async () => {
    // A person's words in the service that happen to hold the key must not come back with it.
    await givenAgent(clientFor(w.h.sandbox), { name: 'Careless', greeting: `My key is ${w.h.sandbox.apiKey}` });
    const careless = await call('agent_get', { agent: 'Careless' });
    expect(careless.isError).toBeFalsy();
    for (const a of answers) {
      expect(a).not.toContain(w.h.sandbox.apiKey);
      expect(a).not.toContain('whsec_do_not_show_me');
    }
    expect(JSON.stringify(careless)).toContain('My key is');
  });
});
