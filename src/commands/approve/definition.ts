/** `voicectl approve`, declared once (src/commands/spec.ts). @internal */
import { Argument } from '@commander-js/extra-typings';
import { verb } from '../spec.js';

/** @internal */
export const approve = verb({
  name: 'approve', summary: 'Approve a launch plan an assistant asked for, at a terminal', action: () => import('./approve.js'),
  description: 'Approve a launch plan that `voicectl mcp` is holding: shows the plan and asks, at a terminal',
  arguments: [new Argument('<plan-hash>', 'the hash campaign_launch answered')],
  help: [`The approval is for that exact plan (contacts, agent, calling-hours options), for one
launch, within an hour. Only a person at a terminal can give it: there is no --yes, and
off a terminal the command refuses (exit 2). A team that approves elsewhere (a chat bot,
a ticket) starts the server with \`voicectl mcp --allow-launch --approval-command CMD\`.`],
  examples: [{ command: 'voicectl approve 3f1c9a0b7e2d4c6a8b1e0f2d3c4b5a69' }],
});
