/**
 * 500 tool calls in a row: the server keeps serving and its memory stays flat. The heap is
 * read from two heap snapshots the server writes on a signal (Node's
 * --heapsnapshot-signal; a snapshot collects garbage first, so it holds only what the
 * server keeps), after 100 calls and after 600.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientFor, givenAgent } from '../helpers/given.js';
import { mcpForFile } from './client.js';

const w = mcpForFile({
  prefix: 'voicectl-mcp-heap-',
  env: { NODE_OPTIONS: '--heapsnapshot-signal=SIGUSR2' },
  given: async (h) => void (await givenAgent(clientFor(h.sandbox), { name: 'Priya' })),
});
const dir = w.dir;

/** What the objects of a heap snapshot take, in MiB: the sum of their own sizes. */
function retainedMiB(file: string): number {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as { snapshot: { meta: { node_fields: string[] } }; nodes: number[] };
  const fields = snap.snapshot.meta.node_fields;
  const at = fields.indexOf('self_size');
  let total = 0;
  for (let i = at; i < snap.nodes.length; i += fields.length) total += snap.nodes[i]!;
  return total / 1024 / 1024;
}

/** The heap after the next snapshot the server writes, in MiB. */
async function heapMiB(): Promise<number> {
  const before = new Set(readdirSync(dir));
  process.kill(w.mcp.pid, 'SIGUSR2');
  let last = -1;
  for (let i = 0; i < 600; i++) {
    await new Promise((r) => setTimeout(r, 100));
    // The server writes the snapshot on its main thread: an answer comes after it is written.
    await w.mcp.client.callTool({ name: 'voice_list', arguments: { limit: 1 } });
    const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (!file) continue;
    const size = statSync(join(dir, file)).size;
    if (size > 0 && size === last) return retainedMiB(join(dir, file));
    last = size;
  }
  throw new Error('no heap snapshot was written');
}

describe.runIf(process.platform !== 'win32')('voicectl mcp under 500 calls', () => {
  it('keeps memory flat', async () => {
    const round = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const name = i % 3 === 0 ? 'agent_list' : i % 3 === 1 ? 'campaign_get' : 'voice_list';
        const args = name === 'campaign_get' ? { campaign_id: `missing-${i}` } : { limit: 5 };
        const r = (await w.mcp.client.callTool({ name, arguments: args })) as { isError?: boolean };
        expect(Boolean(r.isError)).toBe(name === 'campaign_get');
      }
    };
    await round(100);
    const before = await heapMiB();
    await round(500);
    const after = await heapMiB();
    // A flat heap varies by a few percent from one snapshot to the next.
    expect(after, `heap ${before.toFixed(1)} MiB after 100 calls, ${after.toFixed(1)} MiB after 600`).toBeLessThan(before * 1.1);
    const still = (await w.mcp.client.callTool({ name: 'agent_list', arguments: {} })) as { structuredContent?: { items: unknown[] } };
    expect(still.structuredContent?.items).toHaveLength(1);
  }, 180_000);
});
