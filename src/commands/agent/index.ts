import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';
import { createOptions, listOptions, updateOptions } from './definition.js';

export function agentCommand(ctx: Context): CommandUnknownOpts {
  const agent = group('agent');

  listOptions(agent
    .command('list')
    .alias('ls')
    .description('List agents'))
    .addHelpText('after', `\nExamples:\n  voicectl agent list\n  voicectl agent list --all --json | jq -r '.[].name'`)
    .action(lazy(ctx, () => import('./list.js')));

  agent
    .command('get')
    .description('Show one agent')
    .argument('<agent>', 'agent id or exact name')
    .addHelpText('after', `\nExamples:\n  voicectl agent get "Priya - renewals"\n  voicectl agent get AGENT_ID --json > agent.json`)
    .action(lazy(ctx, () => import('./get.js')));

  createOptions(agent
    .command('create')
    .description('Create an agent from flags or a JSON file'))
    .addHelpText('after', `\nExamples:\n  voicectl agent create --name "Priya - renewals" --voice Priya --greeting "Namaste!" --call-purpose "Policy renewals" --prompt "Remind the customer that the policy renews this month."\n  voicectl agent create --file agent.json --name "Priya - renewals (copy)"`)
    .action(lazy(ctx, () => import('./create.js')));

  updateOptions(agent
    .command('update')
    .description('Change an agent; sends only the fields given')
    .argument('<agent>', 'agent id or exact name'))
    .addHelpText('after', `\nExamples:\n  voicectl agent update "Priya - renewals" --greeting "Hello!"\n  voicectl agent update AGENT_ID --kb-add ITEM_ID`)
    .action(lazy(ctx, () => import('./update.js')));

  agent
    .command('delete')
    .alias('rm')
    .description('Delete an agent (its past calls and campaigns remain)')
    .argument('<agent>', 'agent id or exact name')
    .addHelpText('after', `\nExamples:\n  voicectl agent delete AGENT_ID --yes`)
    .action(lazy(ctx, () => import('./delete.js')));

  return agent;
}
