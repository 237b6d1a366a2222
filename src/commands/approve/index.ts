import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';

export function approveCommand(ctx: Context): CommandUnknownOpts {
  return group('approve')
    .description('Approve a launch plan that `voicectl mcp` is holding: shows the plan and asks, at a terminal')
    .argument('<plan-hash>', 'the hash campaign_launch answered')
    .addHelpText('after', `
The approval is for that exact plan (contacts, agent, calling-hours options), for one
launch, within an hour. Only a person at a terminal can give it: there is no --yes, and
off a terminal the command refuses (exit 2). A team that approves elsewhere (a chat bot,
a ticket) starts the server with \`voicectl mcp --allow-launch --approval-command CMD\`.

Examples:
  voicectl approve 3f1c9a0b7e2d4c6a8b1e0f2d3c4b5a69`)
    .action(lazy(ctx, () => import('./approve.js')));
}
