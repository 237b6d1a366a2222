/** 500 tool calls in a row: the server keeps serving and its memory stays flat. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { clientFor, givenAgent } from '../helpers/given.js';
import { startMcp, type McpSession } from './client.js';

let h: Harness;
let mcp: McpSession;

beforeAll(async () => {
  h = await harness();
  await givenAgent(clientFor(h.sandbox), { name: 'Priya' });
  // A heap this small runs out within 500 calls if each call left even a few hundred
  // kilobytes behind (the server's own heap is under 30 MiB), and keeps the garbage
  // collector from letting RSS grow just because it may.
  mcp = await startMcp([], { ...h.env, NODE_OPTIONS: '--max-old-space-size=48' });
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await h?.close();
});

/** Resident memory of the server process, in MiB (Linux). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) / 1024;
}

describe.runIf(process.platform === 'linux')('voicectl mcp under 500 calls', () => {
  it('keeps memory flat', async () => {
    const round = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const name = i % 3 === 0 ? 'agent_list' : i % 3 === 1 ? 'campaign_get' : 'voice_list';
        const args = name === 'campaign_get' ? { campaign_id: `missing-${i}` } : { limit: 5 };
        const r = (await mcp.client.callTool({ name, arguments: args })) as { isError?: boolean };
        expect(Boolean(r.isError)).toBe(name === 'campaign_get');
      }
    };
    await round(100);
    const before = rssMiB(mcp.pid);
    await round(500);
    const after = rssMiB(mcp.pid);
    expect(after - before, `RSS ${before.toFixed(1)} MiB -> ${after.toFixed(1)} MiB`).toBeLessThan(10);
    const still = (await mcp.client.callTool({ name: 'agent_list', arguments: {} })) as { structuredContent?: { items: unknown[] } };
    expect(still.structuredContent?.items).toHaveLength(1);
  }, 120_000);
});
