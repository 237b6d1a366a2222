/**
 * `voicectl mcp` as an MCP client sees it: the built binary started as a child process
 * and driven over stdio with the SDK's own Client.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { BIN, harness, type Harness } from '../helpers/cli.js';
import { run } from '../helpers/run.js';

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

/** The `campaign_launch` tool for campaign `id`, calling hours ignored: the tool's answer. */
export function launchTool(session: McpSession, id: string): Promise<any> {
  return session.client.callTool({ name: 'campaign_launch', arguments: { campaign_id: id, ignore_calling_hours: true } });
}

/** `voicectl approve HASH` in process at a terminal, on the config folder `configDir`, with the question answered. */
export function approveAtTerminal(configDir: string, hash: string, answer: 'y' | 'n' = 'y') {
  return run(['approve', hash], {
    env: { VOICECTL_CONFIG_DIR: configDir },
    tty: true,
    answer: async ({ stdin, stderr }) => {
      for (let i = 0; i < 500 && !/Approve this launch/.test(stderr()); i++) await new Promise((r) => setTimeout(r, 10));
      stdin.write(`${answer}\n`);
    },
  });
}

export interface McpWorld {
  /** The sandbox and the config folder. */
  readonly h: Harness;
  /** The server, started in `dir`. */
  readonly mcp: McpSession;
  /** The working folder: the server's, and where `files` are. */
  readonly dir: string;
}

export interface McpWorldOptions {
  /** Of the working folder's name. */
  prefix: string;
  /** `voicectl mcp`'s flags; null: start no server. */
  flags?: string[] | null;
  /** Added to the harness's environment for the server. */
  env?: Record<string, string>;
  /** Files written in the working folder, by name. */
  files?: Record<string, string>;
  /** What the tests start from, made before the server starts. */
  given?: (h: Harness, dir: string) => Promise<void>;
  /** A folder inside the working folder to start the server in (what `given` makes there stays outside it). */
  cwd?: string;
  /** The sandbox's options (its clock's pace, its seed). */
  sandbox?: Parameters<typeof harness>[0];
}

/**
 * For all the tests of a file: a sandbox harness, a working folder holding `files`, what
 * `given` makes, then `voicectl mcp` started in that folder; all closed and removed after
 * the last test.
 */
export function mcpForFile(opts: McpWorldOptions): McpWorld {
  const dir = mkdtempSync(join(tmpdir(), opts.prefix));
  let h: Harness | undefined;
  let mcp: McpSession | undefined;
  beforeAll(async () => {
    h = await harness(opts.sandbox);
    for (const [name, text] of Object.entries(opts.files ?? {})) writeFileSync(join(dir, name), text);
    await opts.given?.(h, dir);
    if (opts.flags !== null) mcp = await startMcp(opts.flags ?? [], { ...h.env, ...opts.env }, opts.cwd ? join(dir, opts.cwd) : dir);
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    get h() {
      if (!h) throw new Error('the harness of this file has not started');
      return h;
    },
    get mcp() {
      if (!mcp) throw new Error('this file starts no voicectl mcp, or it has not started');
      return mcp;
    },
  };
}
