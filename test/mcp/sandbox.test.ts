/** `voicectl mcp --sandbox`: an emulator in the server's own process, no account or key needed. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv } from '../helpers/cli.js';
import { startMcp, textOf } from './client.js';

describe('voicectl mcp --sandbox', () => {
  it('serves a sandbox of its own: create, list, and no answer holds its key', async () => {
    const config = mkdtempSync(join(tmpdir(), 'voicectl-mcp-sb-'));
    const mcp = await startMcp(['--sandbox', '--allow-write'], baseEnv(config));
    try {
      expect((await mcp.client.callTool({ name: 'agent_list', arguments: {} }) as any).structuredContent.items).toEqual([]);
      const made = await mcp.client.callTool({ name: 'agent_create', arguments: { name: 'Rehearsal', voice: 'Ananya', greeting: 'Hi', call_purpose: 'Practice', prompt: 'Be brief.' } }) as any;
      expect(made.isError, textOf(made)).toBeFalsy();
      const listed = await mcp.client.callTool({ name: 'agent_list', arguments: {} }) as any;
      expect(listed.structuredContent.items.map((a: any) => a.name)).toEqual(['Rehearsal']);
      expect(mcp.stderr()).toMatch(/serving a sandbox at http:\/\/127\.0\.0\.1:\d+/);
      expect(JSON.stringify([made, listed])).not.toMatch(/sk_sandbox_/);
    } finally {
      await mcp.close();
      rmSync(config, { recursive: true, force: true });
    }
  });
});
