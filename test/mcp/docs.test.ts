/** docs/mcp.md's tool list is what the server lists (scripts/mcp-tools-doc.js writes it). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listTools, PAGE, renderTools, withTools } from '../../scripts/mcp-tools-doc.js';

describe('docs/mcp.md', () => {
  it('lists the tools the server lists', async () => {
    const tools = await listTools();
    expect(tools.length).toBeGreaterThanOrEqual(16);
    const page = readFileSync(PAGE, 'utf8');
    expect(withTools(page, renderTools(tools)), 'run node scripts/mcp-tools-doc.js').toBe(page);
    for (const t of tools) expect(page).toContain(`\`${t.name}\``);
  }, 60_000);
});
