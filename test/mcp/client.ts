/**
 * `voicectl mcp` as an MCP client sees it: the built binary started as a child process
 * and driven over stdio with the SDK's own Client.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from '../helpers/cli.js';

export interface McpSession {
  client: Client;
  pid: number;
  stderr(): string;
  close(): Promise<void>;
}

export async function startMcp(flags: string[], env: Record<string, string>, cwd?: string): Promise<McpSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...flags], env, cwd, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => { err += c.toString('utf8'); });
  const client = new Client({ name: 'voicectl-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid!,
    stderr: () => err,
    close: () => client.close(),
  };
}

/** The text of a tool answer. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}
