import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group } from '../shared.js';
import { mcpOptions, type McpFlags } from './definition.js';

/**
 * `build` makes the program for a command line (program.ts passes it): each tool runs a
 * voicectl command line, and this group need not import program.ts back.
 */
export function mcpCommand(ctx: Context, build: (ctx: Context, argv: string[]) => CommandUnknownOpts): CommandUnknownOpts {
  return mcpOptions(group('mcp')
    .description('Serve the account to AI assistants over the Model Context Protocol (stdio)'))
    .addHelpText('after', `
Reads come from the current profile (or --profile). Without flags the tools only read;
--allow-write adds the tools that create and change (never delete), --allow-launch adds
campaign_launch, which launches only a plan a person approved with \`voicectl approve HASH\`.
Register it with an MCP client as the command \`voicectl mcp\` (see docs/mcp.md).
The server stops when the client closes its standard input.

Examples:
  voicectl mcp
  voicectl mcp --sandbox --allow-write --allow-launch
  voicectl mcp --profile staging --allow-write`)
    .action(async (opts: McpFlags) => (await import('./mcp.js')).default(ctx, opts, build));
}
