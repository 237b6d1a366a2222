/**
 * Builds the commander program. Group files define their verbs and options; the verbs'
 * code loads only when run.
 */
import { Command, Option } from 'commander';
import type { Context } from './context.js';
import { version } from './version.js';
import { requestedGroup } from './argv.js';
import { GLOBAL_ATTRIBUTES, globalOptions } from './commands/shared.js';
import { agentCommand } from './commands/agent/index.js';
import { kbCommand } from './commands/kb/index.js';
import { campaignCommand } from './commands/campaign/index.js';
import { contactsCommand } from './commands/contacts/index.js';
import { watchCommand } from './commands/watch-verb.js';
import { callCommand } from './commands/call/index.js';
import { voiceCommand } from './commands/voice/index.js';
import { loginCommand } from './commands/login/index.js';
import { configCommand } from './commands/config/index.js';
import { completionCommand } from './commands/completion/index.js';
import { sandboxCommand } from './commands/sandbox/index.js';
import { demoCommand } from './commands/demo/index.js';
import { webhookCommand } from './commands/webhook/index.js';
import { listenCommand } from './commands/listen/index.js';
import { triggerCommand } from './commands/trigger/index.js';
import { pullCommand } from './commands/pull/index.js';
import { planCommand } from './commands/plan/index.js';
import { applyCommand } from './commands/apply/index.js';
import { schemaCommand } from './commands/schema/index.js';

export { version };

interface Group {
  name: string;
  alias?: string;
  /** The line shown in `voicectl --help`; the group's own help says more. */
  summary: string;
  build: (ctx: Context) => Command;
}

/** Every top-level command, in the order `voicectl --help` lists them. */
const GROUPS: Group[] = [
  { name: 'login', summary: 'Save a base URL and API key to a profile, after checking them', build: loginCommand },
  { name: 'config', summary: 'Show and change the settings saved in a profile', build: configCommand },
  { name: 'voice', alias: 'voices', summary: 'List the voices agents can speak with (no key needed)', build: voiceCommand },
  { name: 'agent', alias: 'agents', summary: 'Create and manage voice agents', build: agentCommand },
  { name: 'kb', summary: 'Upload documents to the knowledge base and manage them', build: kbCommand },
  { name: 'contacts', alias: 'contact', summary: 'Check contact spreadsheets (CSV or .xlsx) before a campaign', build: contactsCommand },
  { name: 'campaign', alias: 'campaigns', summary: 'Create, launch and follow calling campaigns', build: campaignCommand },
  { name: 'watch', summary: 'Follow a campaign live until it completes', build: watchCommand },
  { name: 'call', alias: 'calls', summary: 'Read call results, transcripts and recordings; export them', build: callCommand },
  { name: 'webhook', alias: 'webhooks', summary: 'Manage webhook endpoints that receive signed events', build: webhookCommand },
  { name: 'listen', summary: 'Receive webhook events locally: verify, log, forward to your app', build: listenCommand },
  { name: 'trigger', summary: 'Send a signed sample event to any URL, to test a receiver', build: triggerCommand },
  { name: 'sandbox', summary: 'Run a local emulator of the whole service (no real calls)', build: sandboxCommand },
  { name: 'demo', summary: 'Run a whole campaign against a built-in sandbox: no key, no network', build: demoCommand },
  { name: 'pull', summary: 'Write the account\'s agents, documents and webhooks as files (voicectl.yaml)', build: pullCommand },
  { name: 'plan', summary: 'Show what apply would change in the account; --check exits 6 on drift', build: planCommand },
  { name: 'apply', summary: 'Make the account match the files (asks first; --yes)', build: applyCommand },
  { name: 'schema', summary: 'Print the JSON Schema of voicectl.yaml, for editors', build: schemaCommand },
  { name: 'completion', summary: 'Print a shell completion script for bash, zsh or fish', build: (ctx) => completionCommand(ctx, () => buildProgram(ctx)) },
];

/** Thrown before any action runs when the program was built only to show help. */
export class ActionRequested extends Error {
  constructor() {
    super('a command was requested, not help');
    this.name = 'ActionRequested';
  }
}

/**
 * Builds the program. With `argv`, only the group it asks for is built in full and the
 * others are one-line stubs (names and summaries, enough for help and suggestions):
 * building every verb and option costs more start-up time than all the rest.
 * Without `argv` (shell completion), everything is built.
 */
/** Every top-level command's name. */
export const GROUP_NAMES: readonly string[] = GROUPS.map((g) => g.name);

export function buildProgram(ctx: Context, argv?: string[], options: { helpOnly?: boolean } = {}): Command {
  const program = new Command('voicectl')
    .description('Run AI voice agents and calling campaigns from the terminal.')
    .version(version(), '-v, --version', 'print the version')
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  for (const opt of globalOptions()) program.addOption(opt);

  const wanted = argv ? requestedGroup(argv) : undefined;
  for (const g of GROUPS) {
    const full = !argv || wanted === g.name || (g.alias !== undefined && wanted === g.alias);
    const cmd = full ? g.build(ctx) : stub(g.name);
    cmd.description(g.summary);
    if (!full && g.alias) cmd.alias(g.alias);
    program.addCommand(cmd);
  }

  finish(program, ctx);

  program.hook('preAction', async (_root, action) => {
    if (options.helpOnly) throw new ActionRequested();
    const merged: Record<string, unknown> = { ...program.opts() };
    const leaf = action.opts();
    for (const name of GLOBAL_ATTRIBUTES) {
      if (action.getOptionValueSource(name) === 'cli' && isGlobal(action, name)) merged[name] = leaf[name];
    }
    ctx.opts = merged;
    // After the options: --no-color means chalk is not needed at all.
    await ctx.loadColors();
  });
  return program;
}

const GLOBAL_MARK = Symbol('voicectl.global');
const STUB = Symbol('voicectl.stub');

/** A group that this command line does not use: a name and a summary, nothing to run. */
function stub(name: string): Command {
  const cmd = new Command(name);
  (cmd as unknown as Record<symbol, boolean>)[STUB] = true;
  return cmd;
}

function isGlobal(cmd: Command, attr: string): boolean {
  return cmd.options.some((o) => o.attributeName() === attr && (o as unknown as Record<symbol, boolean>)[GLOBAL_MARK]);
}

/**
 * Every command writes through the context's streams and throws instead of exiting;
 * every leaf also accepts the global options after its verb (`agent list --json`).
 */
function finish(cmd: Command, ctx: Context): void {
  cmd.exitOverride();
  // Every help lists the global options too: a verb's own text tells you to pass --yes or --json.
  cmd.configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  cmd.configureOutput({
    writeOut: (s) => ctx.io.stdout.write(s),
    writeErr: (s) => ctx.io.stderr.write(s),
    outputError: (s, write) => write(ctx.errColor.red(s)),
    // The context's streams, not process.stdout: help goes where the context writes (80
    // columns, commander's own default, when it is not a terminal).
    getOutHelpWidth: () => (ctx.io.stdout.isTTY && ctx.io.stdout.columns) || 80,
    getErrHelpWidth: () => (ctx.io.stderr.isTTY && ctx.io.stderr.columns) || 80,
    // Help is plain text.
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  const leaf = cmd.commands.length === 0 && cmd.parent !== null && !(cmd as unknown as Record<symbol, boolean>)[STUB];
  if (leaf) {
    for (const opt of globalOptions()) {
      const taken = cmd.options.some((o) => o.long === opt.long || (opt.short && o.short === opt.short));
      if (taken) continue;
      opt.hideHelp();
      (opt as unknown as Record<symbol, boolean>)[GLOBAL_MARK] = true;
      cmd.addOption(opt);
    }
  }
  for (const sub of cmd.commands) finish(sub, ctx);
}

export { Option };
