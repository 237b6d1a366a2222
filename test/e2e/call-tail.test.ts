/**
 * `call tail` end to end: the built binary against the sandbox (fast clock), two campaigns
 * launched while it runs, every call printed once as it finishes, Ctrl-C exits 130.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, harness, type Harness } from '../helpers/cli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

let h: Harness;
let agentId = '';

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${h.sandbox.url}${path}`, {
    method,
    headers: { 'x-api-key': h.sandbox.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function campaign(n: number, first: number): Promise<string> {
  const c = await api('POST', '/campaigns/json', {
    name: `Tail ${first}`, agent_id: agentId,
    contacts: Array.from({ length: n }, (_, i) => ({ phone_number: `+9198${String(first + i).padStart(8, '0')}`, name: `C${first + i}` })),
  });
  await api('POST', `/campaigns/${c.id}/launch`);
  return c.id;
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function finishedIds(id: string): Promise<string[]> {
  const page = await api('GET', `/calls?campaign_id=${id}&limit=200`);
  return page.calls.filter((c: any) => c.end_time).map((c: any) => c.call_id);
}

beforeAll(async () => {
  h = await harness({ timeScale: 600, seed: 5 });
  agentId = (await api('POST', '/agents', { name: 'Tail desk', voice_name: 'Priya', greeting: 'Hi', call_purpose: 'x', prompt: 'x', tools: [] })).id;
});
afterAll(async () => h.close());

describe('voicectl call tail', () => {
  it('prints every call of two campaigns exactly once as JSON lines, and exits 130 on Ctrl-C', async () => {
    const tail = execa(process.execPath, [BIN, 'call', 'tail', '--json', '--interval', '1'], { env: h.env, extendEnv: false, reject: false });
    let out = '';
    tail.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    await new Promise((r) => setTimeout(r, 1500));
    const a = await campaign(30, 1000);
    const b = await campaign(20, 2000);
    const lines = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { call_id: string; campaign_id: string });
    await until(() => lines().length >= 50, 30_000);
    await new Promise((r) => setTimeout(r, 2500)); // a few more polls: nothing is printed twice
    tail.kill('SIGINT');
    const r = await tail;
    expect(r.exitCode).toBe(130);
    const got = lines();
    expect(new Set(got.map((c) => c.call_id)).size).toBe(got.length);
    const expected = [...(await finishedIds(a)), ...(await finishedIds(b))].sort();
    expect(got.map((c) => c.call_id).sort()).toEqual(expected);
    expect(expected).toHaveLength(50);
  });

  it('--campaign and --status filter what is printed', async () => {
    const tail = execa(process.execPath, [BIN, 'call', 'tail', '--json', '--interval', '1', '--since', '1m'], { env: h.env, extendEnv: false, reject: false });
    const c = await campaign(15, 3000);
    const only = execa(process.execPath, [BIN, 'call', 'tail', '--json', '--interval', '1', '--since', '1d', '--campaign', c, '--status', 'completed'], { env: h.env, extendEnv: false, reject: false });
    let out = '';
    only.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    const page = async () => (await api('GET', `/calls?campaign_id=${c}&limit=200`)).calls as any[];
    const end = Date.now() + 20_000;
    while ((await page()).some((x) => !x.end_time) && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    const completed = (await page()).filter((x) => x.status === 'completed').map((x) => x.call_id).sort();
    await until(() => out.split('\n').filter(Boolean).length >= completed.length, 10_000);
    await new Promise((r) => setTimeout(r, 1500));
    only.kill('SIGINT');
    tail.kill('SIGINT');
    await Promise.all([only, tail]);
    const got = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { call_id: string; campaign_id: string; status: string });
    expect(got.every((x) => x.campaign_id === c && x.status === 'completed')).toBe(true);
    expect(got.map((x) => x.call_id).sort()).toEqual(completed);
  });

  it('a poll that fails is reported once and loses nothing', async () => {
    // A proxy in front of the sandbox that fails three polls after the first.
    let polls = 0;
    const front = createServer(async (req, res) => {
      if (req.url?.startsWith('/calls')) polls++;
      if (req.url?.startsWith('/calls') && polls >= 2 && polls <= 4) {
        res.writeHead(500).end('{"error":"down for a moment"}');
        return;
      }
      const upstream = await fetch(`${h.sandbox.url}${req.url}`, { headers: { 'x-api-key': String(req.headers['x-api-key'] ?? '') } });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
    const { url, close } = await listenOnLoopback(front);
    try {
      const tail = execa(process.execPath, [BIN, 'call', 'tail', '--json', '--interval', '1'], { env: { ...h.env, VOICECTL_BASE_URL: url }, extendEnv: false, reject: false });
      let out = '';
      tail.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
      await new Promise((r) => setTimeout(r, 1200));
      const c = await campaign(10, 4000);
      await until(() => out.split('\n').filter(Boolean).length >= 10, 30_000);
      tail.kill('SIGINT');
      const r = await tail;
      expect(r.stderr).toMatch(/could not read calls/);
      expect(r.stderr.match(/could not read calls/g)).toHaveLength(1);
      const got = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { call_id: string });
      expect(got.map((x) => x.call_id).sort()).toEqual((await finishedIds(c)).sort());
    } finally {
      await close();
    }
  });
});
