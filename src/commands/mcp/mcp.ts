import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { FailureError, UsageError } from '../../errors.js';
import { isTerminal } from '../../io/terminal.js';
import type { McpFlags } from './definition.js';

export default async function mcpVerb(ctx: Context, opts: McpFlags, build: (ctx: Context, argv: string[]) => CommandUnknownOpts): Promise<void> {
  const globals: string[] = [];
  if (opts.approvalCommand !== undefined && !opts.approvalCommand.trim()) throw new UsageError('--approval-command needs a command.');
  if (opts.approvalCommand !== undefined && !opts.allowLaunch) throw new UsageError('--approval-command approves launches: it needs --allow-launch.');
  if (opts.sandbox) {
    // The emulator is only needed with --sandbox.
    const { startSandbox } = await import('../../sandbox/index.js');
    let sandbox;
    try {
      sandbox = await startSandbox({ port: 0, host: '127.0.0.1', log: () => {} });
    } catch (err) {
      throw new FailureError(`Cannot start the sandbox: ${err instanceof Error ? err.message : String(err)}`);
    }
    ctx.onClose(() => sandbox.close());
    ctx.addSecret(sandbox.apiKey);
    globals.push(`--base-url=${sandbox.url}`, `--api-key=${sandbox.apiKey}`);
    ctx.info(`voicectl mcp: serving a sandbox at ${sandbox.url} (simulated calls, no balance used).`);
  } else {
    if (ctx.opts.profile !== undefined) globals.push(`--profile=${ctx.opts.profile}`);
    if (ctx.opts.baseUrl !== undefined) globals.push(`--base-url=${ctx.opts.baseUrl}`);
    if (ctx.opts.apiKey !== undefined) globals.push(`--api-key=${ctx.opts.apiKey}`);
    if (!ctx.settings().baseUrl) ctx.warn('no service address is set (--base-url, VOICECTL_BASE_URL or `voicectl login`): every tool will answer with that error.');
  }
  if (ctx.opts.timeout !== undefined) globals.push(`--timeout=${ctx.opts.timeout}`);
  if (isTerminal(ctx, 'stdin')) {
    ctx.info('voicectl mcp speaks the Model Context Protocol on standard input and output, for an MCP client to start (docs/mcp.md). Ctrl-C stops it.');
  }
  const { serveStdio } = await import('../../mcp/server.js');
  await serveStdio(ctx, { build, allowWrite: opts.allowWrite, allowLaunch: opts.allowLaunch, approvalCommand: opts.approvalCommand, globals });
}
