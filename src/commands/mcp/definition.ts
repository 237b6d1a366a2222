/**
 * The options of `voicectl mcp`, declared once: the verb's flags type is derived from
 * its definition, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out.
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** @internal */
export function mcpOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--allow-write', 'also offer the tools that create and change: agent create and update, campaign create and redial (drafts), kb upload')
    .option('--allow-launch', 'also offer campaign_launch; each launch still needs a person\'s approval (`voicectl approve HASH`)')
    .option('--sandbox', 'start a sandbox in this process and serve it instead of the account (no key, no real calls)')
    .option('--approval-command <cmd>', 'approve launches with this shell command instead of `voicectl approve`: it reads the plan as JSON on stdin, the hash is its last argument; exit 0 approves');
}

/** @internal */
export type McpFlags = FlagsOf<typeof mcpOptions>;
