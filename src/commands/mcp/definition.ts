/**
 * `voicectl mcp`, declared once (src/commands/spec.ts): its flags type is derived from
 * its options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out.
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type McpFlags = FlagsOf<typeof mcpOptions>;

/** @internal */
export const mcp = verb({
  name: 'mcp', summary: 'Serve the account to AI assistants (Model Context Protocol over stdio)', options: mcpOptions,
  description: 'Serve the account to AI assistants over the Model Context Protocol (stdio)',
  help: [`Reads come from the current profile (or --profile). Without flags the tools only read;
--allow-write adds the tools that create and change (never delete), --allow-launch adds
campaign_launch, which launches only a plan a person approved with \`voicectl approve HASH\`.
Register it with an MCP client as the command \`voicectl mcp\` (see docs/mcp.md).
The server stops when the client closes its standard input.`],
  examples: [{ command: 'voicectl mcp' }, { command: 'voicectl mcp --sandbox --allow-write --allow-launch' }, { command: 'voicectl mcp --profile staging --allow-write' }],
  // Each tool runs a voicectl command line: the server is handed the program builder.
  run: async (ctx, build, opts) => (await import('./mcp.js')).default(ctx, opts, build),
});

/** @internal */
export function mcpOptions(cmd: Command) {
  return cmd
    .option('--allow-write', 'also offer the tools that create and change: agent create and update, campaign create and redial (drafts), kb upload')
    .option('--allow-launch', 'also offer campaign_launch; each launch still needs a person\'s approval (`voicectl approve HASH`)')
    .option('--sandbox', 'start a sandbox in this process and serve it instead of the account (no key, no real calls)')
    .option('--approval-command <cmd>', 'approve launches with this shell command instead of `voicectl approve`: it reads the plan as JSON on stdin, the hash is its last argument; exit 0 approves');
}
