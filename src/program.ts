/**
 * Builds the commander program. Group files define their verbs and options; the verbs'
 * code loads only when run.
 */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from './context.js';
import { version } from './version.js';
import { requestedGroup } from './argv.js';
import { GLOBAL_ATTRIBUTES, globalOptions } from './commands/shared.js';
import { GROUP_INFO } from './commands/groups.js';
import { isGroup, toCommand, type Group, type Verb } from './commands/spec.js';
import { agent } from './commands/agent/definition.js';
import { kb } from './commands/kb/definition.js';
import { campaignCommand } from './commands/campaign/index.js';
import { contactsCommand } from './commands/contacts/index.js';
import { watchCommand } from './commands/watch-verb.js';
import { callCommand } from './commands/call/index.js';
import { testCommand } from './commands/test/index.js';
import { voiceCommand } from './commands/voice/index.js';
import { loginCommand } from './commands/login/index.js';
import { configCommand } from './commands/config/index.js';
import { completionCommand } from './commands/completion/index.js';
import { sandboxCommand } from './commands/sandbox/index.js';
import { demoCommand } from './commands/demo/index.js';
import { webhookCommand } from './commands/webhook/index.js';
import { listenCommand } from './commands/listen/index.js';
import { eventsCommand } from './commands/events/index.js';
import { triggerCommand } from './commands/trigger/index.js';
import { pullCommand } from './commands/pull/index.js';
import { planCommand } from './commands/plan/index.js';
import { applyCommand } from './commands/apply/index.js';
import { schemaCommand } from './commands/schema/index.js';
import { mcpCommand } from './commands/mcp/index.js';
import { approveCommand } from './commands/approve/index.js';
import { apiCommand } from './commands/api/index.js';
import { doctorCommand } from './commands/doctor/index.js';

export { version };

/** How each top-level command is built; its name, alias and summary are in commands/groups.ts. */
const BUILDERS: Record<string, (ctx: Context) => CommandUnknownOpts> = {
  login: loginCommand,
  config: configCommand,
  voice: voiceCommand,
  contacts: contactsCommand,
  campaign: campaignCommand,
  watch: watchCommand,
  call: callCommand,
  test: testCommand,
  webhook: webhookCommand,
  listen: listenCommand,
  events: eventsCommand,
  trigger: triggerCommand,
  sandbox: sandboxCommand,
  demo: demoCommand,
  pull: pullCommand,
  plan: planCommand,
  apply: applyCommand,
  schema: schemaCommand,
  mcp: (ctx) => mcpCommand(ctx, (c, argv) => buildProgram(c, argv)),
  approve: approveCommand,
  api: apiCommand,
  doctor: doctorCommand,
  completion: (ctx) => completionCommand(ctx, () => buildProgram(ctx)),
};

const SPECS: Record<string, Group | Verb> = { agent, kb };

const GROUPS = GROUP_INFO.map((info) => {
  const spec = SPECS[info.name];
  const build = spec ? (ctx: Context) => toCommand(spec, ctx, (c, argv) => buildProgram(c, argv)) : BUILDERS[info.name]!;
  return { ...info, build };
});
void isGroup;

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

export function buildProgram(ctx: Context, argv?: string[], options: { helpOnly?: boolean } = {}): CommandUnknownOpts {
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
    // The line `voicectl --help` lists; a command's own help shows its description.
    cmd.summary(g.summary);
    if (!full) {
      cmd.description(g.summary);
      if (g.alias) cmd.alias(g.alias);
    }
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
function stub(name: string): CommandUnknownOpts {
  const cmd = new Command(name);
  (cmd as unknown as Record<symbol, boolean>)[STUB] = true;
  return cmd;
}

function isGlobal(cmd: CommandUnknownOpts, attr: string): boolean {
  return cmd.options.some((o) => o.attributeName() === attr && (o as unknown as Record<symbol, boolean>)[GLOBAL_MARK]);
}

/**
 * Every command writes through the context's streams and throws instead of exiting;
 * every leaf also accepts the global options after its verb (`agent list --json`).
 */
function finish(cmd: CommandUnknownOpts, ctx: Context): void {
  cmd.exitOverride();
  // Every help lists the global options too: a verb's own text tells you to pass --yes or --json.
  cmd.configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  cmd.configureOutput({
    writeOut: (s) => ctx.io.stdout.write(s),
    writeErr: (s) => ctx.io.stderr.write(s),
    // Under errors as JSON, main.ts reports commander's error as one JSON object.
    outputError: (s, write) => { if (!ctx.jsonErrors) write(ctx.errColor.red(s)); },
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
