/**
 * The agent verbs, each declared once (src/commands/spec.ts): each verb's flags type is
 * derived from its options, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { commaList, nonNegativeInt, pageLimit, type FlagsOf, tableHelp } from '../shared.js';
import { verb, type Group } from '../spec.js';

/** @internal */
export type ListFlags = FlagsOf<typeof listOptions>;
/** @internal */
export type CreateFlags = FlagsOf<typeof createOptions>;
/** @internal */
export type UpdateFlags = FlagsOf<typeof updateOptions>;
/** The flags that set agent fields (status only on update). */
/** @internal */
export type AgentFlags = Omit<UpdateFlags, 'kbAdd' | 'kbRemove'>;

/** Flags shared by create and update, one per agent field. */
/** @internal */
export function agentFieldOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
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

const agentArgument = () => new Argument('<agent>', 'agent id or exact name');

/** @internal */
export const agent: Group = {
  name: 'agent', alias: 'agents', summary: 'Create and manage voice agents',
  verbs: [
    verb({ name: 'list', alias: 'ls', summary: 'List agents', options: listOptions, action: () => import('./list.js'),
      help: [tableHelp(['ID', 'NAME'])],
      examples: [{ command: 'voicectl agent list' }, { command: "voicectl agent list --all --json | jq -r '.[].name'" }] }),
    verb({ name: 'get', summary: 'Show one agent', arguments: [agentArgument()], action: () => import('./get.js'),
      examples: [{ command: 'voicectl agent get "Priya - renewals"' }, { command: 'voicectl agent get AGENT_ID --json > agent.json' }] }),
    verb({ name: 'create', summary: 'Create an agent from flags or a JSON file', options: createOptions, action: () => import('./create.js'),
      examples: [{ command: 'voicectl agent create --name "Priya - renewals" --voice Priya --greeting "Namaste!" --call-purpose "Policy renewals" --prompt "Remind the customer that the policy renews this month."' }, { command: 'voicectl agent create --file agent.json --name "Priya - renewals (copy)"' }] }),
    verb({ name: 'update', summary: 'Change an agent; sends only the fields given', arguments: [agentArgument()], options: updateOptions, action: () => import('./update.js'),
      examples: [{ command: 'voicectl agent update "Priya - renewals" --greeting "Hello!"' }, { command: 'voicectl agent update AGENT_ID --kb-add ITEM_ID' }] }),
    verb({ name: 'delete', alias: 'rm', summary: 'Delete an agent (its past calls and campaigns remain)', arguments: [agentArgument()], action: () => import('./delete.js'),
      examples: [{ command: 'voicectl agent delete AGENT_ID --yes' }] }),
  ],
};

/** @internal */
export function createOptions(cmd: Command) {
  return agentFieldOptions(cmd
    .option('--file <agent.json>', 'read the agent\'s fields from a JSON file (flags override it)'));
}

/** @internal */
export function updateOptions(cmd: Command) {
  return agentFieldOptions(cmd
    .option('--status <status>', 'agent status, for example active')
    .option('--kb-add <ids>', 'attach knowledge-base items, keeping the ones attached (repeatable)', commaList)
    .option('--kb-remove <ids>', 'detach knowledge-base items, keeping the others (repeatable)', commaList));
}

/** @internal */
export function listOptions(cmd: Command) {
  return cmd
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200', pageLimit)
    .option('--offset <n>', 'start after this many agents', nonNegativeInt);
}
