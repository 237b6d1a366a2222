/** The write tools of `voicectl mcp --allow-write`: they create and change, as the verbs they run do, and launch nothing. */
import { describe, expect, it } from 'vitest';
import { mcpForFile, textOf } from './client.js';

const w = mcpForFile({ prefix: 'voicectl-mcp-write-', flags: ['--allow-write'], files: { 'policy.txt': 'Leave policy: 20 days a year.\n' } });

const call = (name: string, args: Record<string, unknown>) => w.mcp.client.callTool({ name, arguments: args }) as Promise<any>;

describe('write tools', () => {
  it('create and update an agent, create a draft from inline rows, upload a document; nothing is launched', async () => {
    const agent = await call('agent_create', { name: 'Asha', voice: 'Ananya', greeting: 'Hi {name}', call_purpose: 'Follow up', prompt: 'Be brief.', tools: ['take_message'] });
    expect(agent.isError, textOf(agent)).toBeFalsy();
    expect(agent.structuredContent).toMatchObject({ name: 'Asha', voice_name: 'Ananya' });
    const updated = await call('agent_update', { agent: 'Asha', greeting: 'Hello {name}' });
    expect(updated.isError, textOf(updated)).toBeFalsy();
    const cli = JSON.parse((await w.h.run(['agent', 'get', 'Asha', '--json'])).stdout);
    expect(cli.greeting).toBe('Hello {name}');

    const draft = await call('campaign_create', { name: 'From rows', agent: 'Asha', rows: [{ phone: '+919812345670', name: 'A' }, { phone: '+919812345671', name: 'B' }] });
    expect(draft.isError, textOf(draft)).toBeFalsy();
    expect(draft.structuredContent).toMatchObject({ status: 'draft', total_contacts: 2 });

    const bad = await call('campaign_create', { name: 'Bad rows', agent: 'Asha', rows: [{ phone: 'not a number' }] });
    expect(bad.isError).toBe(true);

    const kb = await call('kb_upload', { paths: ['policy.txt'], folder: 'hr' });
    expect(kb.isError, textOf(kb)).toBeFalsy();
    expect(JSON.stringify(kb.structuredContent)).toContain('hr/policy.txt');

    expect(w.h.sandbox.requests.filter((r) => r.method === 'POST' && /\/launch$/.test(r.path))).toEqual([]);
  });
});
