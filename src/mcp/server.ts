/**
 * `voicectl mcp`: the Model Context Protocol over stdio, with the official SDK. Every tool
 * runs a voicectl command line in this process (runner.ts), so it answers what the CLI's
 * --json prints and fails with the CLI's own message; nothing it answers holds a key or a
 * webhook secret.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer, ResourceTemplate } from './sdk.js';
import { LineTransport } from './transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../context.js';
import { schemaText } from '../gitops/schema.js';
import { version } from '../version.js';
import { confinePaths } from './confine.js';
import { launchTool } from './launch.js';
import { findCommand, VerbRunner, type Arg, type ProgramBuilder } from './runner.js';
import { parseJson, ToolFailure, verbArgv, type ToolDeps, type ToolSpec } from './tool-spec.js';
import { inputShape, readVerb, type VerbView } from './verb-spec.js';
import { toolsFor } from './tools.js';

export interface ServerOptions {
  build: ProgramBuilder;
  allowWrite?: boolean;
  allowLaunch?: boolean;
  approvalCommand?: string;
  /** Global flags for every command line the tools run (--profile, or the in-process sandbox's address and key). */
  globals: string[];
}

/**
 * The SDK validates with a JSON Schema validator only what a client answers to a server's
 * own questions (elicitation), which voicectl never asks; its default (Ajv) costs a
 * third of the server's start-up to construct.
 */
const NO_ELICITATION = {
  getValidator: () => () => ({ valid: false as const, data: undefined, errorMessage: 'voicectl mcp asks the client nothing' }),
};

/** The server with its tools and resources, not yet connected. */
export function createServer(ctx: Context, options: ServerOptions): McpServer {
  const runner = new VerbRunner({ build: options.build, env: ctx.env, cwd: ctx.cwd, globals: options.globals, signal: ctx.signal, now: ctx.now });
  const server = new McpServer({ name: 'voicectl', version: version() }, {
    jsonSchemaValidator: NO_ELICITATION,
    instructions: 'voicectl\'s account tools: agents, voices, campaigns, calls, reports. A launch needs a person\'s approval at a terminal (`voicectl approve HASH`).',
  });

  const cli = async (argv: Arg[]): Promise<unknown> => {
    const o = await runner.run(argv);
    if (o.code !== 0) throw new ToolFailure(cliMessage(o.stderr, o.code), o.code);
    const value = parseJson(o.stdout);
    if (value === undefined) throw new ToolFailure(`error: the command printed no JSON (exit ${o.code}).`, 1);
    return value;
  };

  const tools = toolsFor(options);
  const views = verbViews(ctx, options.build, tools.map((t) => t.verb));
  for (const tool of tools) {
    server.registerTool(tool.name, {
      title: tool.annotations.title,
      description: tool.description,
      inputSchema: inputShape(tool, views.get(tool.verb)!),
      outputSchema: tool.output,
      annotations: tool.annotations,
    }, async (args: Record<string, unknown>) => answer(ctx, tool, args, { runner, cli, approvalCommand: options.approvalCommand }));
  }

  server.registerResource('campaign-report', new ResourceTemplate('voicectl://campaigns/{id}/report', { list: undefined }), {
    title: 'Campaign report',
    description: 'A campaign\'s report as markdown (as `voicectl campaign report ID --format md`).',
    mimeType: 'text/markdown',
  }, async (uri, variables) => {
    const id = String(Array.isArray(variables.id) ? variables.id[0] : variables.id);
    const o = await runner.run(['campaign', 'report', '--format=md', { positional: decodeURIComponent(id) }]);
    if (o.code !== 0) throw new Error(ctx.redact(cliMessage(o.stderr, o.code)));
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: ctx.redact(o.stdout) }] };
  });

  server.registerResource('account-schema', 'voicectl://schema/voicectl.yaml', {
    title: 'JSON Schema of voicectl.yaml',
    description: 'The schema of the account file that `voicectl plan` and `apply` read (as `voicectl schema`).',
    mimeType: 'application/schema+json',
  }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/schema+json', text: schemaText() }] }));

  return server;
}

/**
 * What each verb the tools run takes, read from its spec as the program builds it: one
 * build per group (the builder makes in full only the group a command line names).
 */
function verbViews(ctx: Context, build: ProgramBuilder, verbs: string[]): Map<string, VerbView> {
  const views = new Map<string, VerbView>();
  const programs = new Map<string, ReturnType<ProgramBuilder>>();
  for (const verb of new Set(verbs)) {
    const group = verb.split(' ')[0]!;
    let program = programs.get(group);
    if (!program) programs.set(group, (program = build(ctx, [group])));
    const cmd = findCommand(program, verb);
    if (!cmd) throw new Error(`voicectl has no verb "${verb}" for an MCP tool`);
    views.set(verb, readVerb(cmd, verb));
  }
  return views;
}

interface AnswerDeps {
  runner: VerbRunner;
  cli(argv: Arg[]): Promise<unknown>;
  approvalCommand?: string;
}

/** One tool call: its answer, or a tool error with the CLI's message; never a crash of the server. */
async function answer(ctx: Context, tool: ToolSpec, args: Record<string, unknown>, d: AnswerDeps): Promise<CallToolResult> {
  const temp: string[] = [];
  const deps: ToolDeps = {
    cli: d.cli,
    cliOutcome: (argv) => d.runner.run(argv),
    rowsFile: async (rows) => {
      const dir = await mkdtemp(join(tmpdir(), 'voicectl-mcp-'));
      temp.push(dir);
      const file = join(dir, 'rows.csv');
      await writeFile(file, rowsCsv(rows));
      return file;
    },
    launch: (a) => launchTool(a, { runner: d.runner, env: ctx.env, now: ctx.now, approvalCommand: d.approvalCommand, cli: d.cli }),
    argv: (args, skip) => verbArgv(tool, args, skip),
    instead: async (argv, action) => {
      let answer: Record<string, unknown> | undefined;
      const o = await d.runner.run(argv, { verb: tool.verb, action: async (c, flags) => void (answer = await action(c, flags)) });
      if (o.code !== 0 || !answer) throw new ToolFailure(cliMessage(o.stderr, o.code), o.code || 1);
      return answer;
    },
  };
  try {
    // Paths first: nothing runs for a tool call that names a file outside the server's folder.
    const result = await tool.call(await confinePaths(ctx.cwd, tool, args), deps);
    const structured = withoutSecrets(result.structured) as Record<string, unknown>;
    const json = ctx.redact(JSON.stringify(structured));
    const safe = JSON.parse(json) as Record<string, unknown>;
    const text = result.text ? `${ctx.redact(result.text)}` : JSON.stringify(safe, null, 2);
    return { content: [{ type: 'text', text }], structuredContent: safe, ...(result.isError ? { isError: true } : {}) };
  } catch (err) {
    const message = err instanceof ToolFailure ? err.message : `error: unexpected error: ${err instanceof Error ? err.message : String(err)}`;
    return { content: [{ type: 'text', text: ctx.redact(message) }], isError: true };
  } finally {
    for (const dir of temp) await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** The CLI's own message, as it printed it on stderr, with the exit code that says what kind of failure it is. */
function cliMessage(stderr: string, code: number): string {
  const text = stderr.trim();
  return `${text || 'error: the command failed.'}\n(exit code ${code})`;
}

/** Keys that name a secret are dropped wherever they appear (a webhook's secret, a key echoed back). */
const SECRET_KEY = /^(secret|api_key|apikey|webhook_secret|signing_secret|password|token)$/i;

export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([k]) => !SECRET_KEY.test(k)).map(([k, v]) => [k, withoutSecrets(v)]));
  }
  return value;
}

/** Inline rows as CSV: the union of their headers, every cell quoted (RFC 4180). */
export function rowsCsv(rows: Array<Record<string, unknown>>): string {
  const headers: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!headers.includes(k)) headers.push(k);
  const cell = (v: unknown) => `"${(v === undefined || v === null ? '' : String(v)).replace(/"/g, '""')}"`;
  return [headers.map(cell).join(','), ...rows.map((r) => headers.map((h) => cell(r[h])).join(','))].join('\r\n') + '\r\n';
}

/** Serves over stdin and stdout until the client closes stdin or Ctrl-C. */
export async function serveStdio(ctx: Context, options: ServerOptions): Promise<void> {
  const server = createServer(ctx, options);
  const transport = new LineTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
}
