import { it, expect } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
it('dups', async () => {
  const sb = await startSandbox({ port: 0, timeScale: 600, seed: 11 });
  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${sb.url}${path}`, { method, headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    return res.json();
  };
  const agent = await api('POST', '/agents', { name: 'A', voice_name: 'Priya', greeting: 'x', call_purpose: 'x', prompt: 'x', tools: [] });
  const c = await api('POST', '/campaigns/json', { name: 'x', agent_id: agent.id, contacts: Array.from({ length: 150 }, (_, i) => ({ phone_number: `+9198${String(7000000 + i).padStart(8, '0')}` })) });
  await api('POST', `/campaigns/${c.id}/launch`);
  for (let k = 0; k < 10; k++) {
    const page = await api('GET', `/calls?campaign_id=${c.id}&limit=200`);
    const ids = page.calls.map((x: any) => x.call_id);
    console.log(page.total, ids.length, new Set(ids).size);
    await new Promise((r) => setTimeout(r, 100));
  }
  await sb.close();
});
