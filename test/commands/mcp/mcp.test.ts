/** `voicectl mcp`: the MCP server over stdio, as a client sees it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { harness, type Harness } from '../../helpers/cli.js';
import { startMcp } from '../../mcp/client.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

describe('mcp', () => {
  itShowsHelp((args) => h.run(args), ['mcp']);

  it('offers the read tools, and the write tools only with --allow-write', async () => {
    const read = await startMcp([], h.env);
    const write = await startMcp(['--allow-write'], h.env);
    try {
      const names = (await read.client.listTools()).tools.map((t) => t.name);
      const more = (await write.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('campaign_list');
      expect(names).not.toContain('agent_create');
      expect(more).toContain('agent_create');
    } finally {
      await read.close();
      await write.close();
    }
  });

  it('--approval-command without --allow-launch is exit 2', async () => {
    const r = await h.run(['mcp', '--approval-command', 'true']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('it needs --allow-launch');
  });
});
