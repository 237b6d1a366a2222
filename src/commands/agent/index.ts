import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { commaList, group, lazy, nonNegativeInt, pageLimit } from '../shared.js';

/** Flags shared by create and update, one per agent field. */
function agentFieldOptions(cmd: Command): Command {
  return cmd
    .option('--name <name>', 'agent name')
    .option('--voice <voice_name>', 'voice_name from `voicectl voice list`')
    .option('--language <tag>', 'locale tag; defaults to the voice\'s language')
    .option('--greeting <text>', 'what the agent says first')
    .option('--call-purpose <text>', 'why the agent calls')
    .option('--prompt <text>', 'instructions for the agent')
    .option('--prompt-file <file>', 'read the prompt from a file')
    .option('--tools <list>', 'comma-separated: schedule_callback, take_message, summarize_call', commaList)
    .option('--kb <ids>', 'knowledge-base item ids to attach (replaces the list)', commaList)
    .addOption(new Option('--direction <direction>', 'outbound or inbound').choices(['outbound', 'inbound']));
}

export function agentCommand(ctx: Context): Command {
  const agent = group('agent');

  agent
    .command('list')
    .alias('ls')
    .description('List agents')
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200', pageLimit)
    .option('--offset <n>', 'start after this many agents', nonNegativeInt)
    .addHelpText('after', `\nExamples:\n  voicectl agent list\n  voicectl agent list --all --json | jq -r '.[].name'`)
    .action(lazy(ctx, () => import('./list.js')));

  agent
    .command('get')
    .description('Show one agent')
    .argument('<agent>', 'agent id or exact name')
    .addHelpText('after', `\nExamples:\n  voicectl agent get "Priya - renewals"\n  voicectl agent get AGENT_ID --json > agent.json`)
    .action(lazy(ctx, () => import('./get.js')));

  agentFieldOptions(
    agent
      .command('create')
      .description('Create an agent from flags or a JSON file')
      .option('--file <agent.json>', 'read the agent\'s fields from a JSON file (flags override it)'),
  )
    .addHelpText('after', `\nExamples:\n  voicectl agent create --name "Priya - renewals" --voice Priya --greeting "Namaste!" --call-purpose "Policy renewals" --prompt "Remind the customer that the policy renews this month."\n  voicectl agent create --file agent.json --name "Priya - renewals (copy)"`)
    .action(lazy(ctx, () => import('./create.js')));

  agentFieldOptions(
    agent
      .command('update')
      .description('Change an agent; sends only the fields given')
      .argument('<agent>', 'agent id or exact name')
      .option('--status <status>', 'agent status, for example active')
      .option('--kb-add <ids>', 'attach knowledge-base items, keeping the ones attached (repeatable)', commaList)
      .option('--kb-remove <ids>', 'detach knowledge-base items, keeping the others (repeatable)', commaList),
  )
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
