/**
 * Builds the commander program from the specs each command folder declares (src/commands/spec.ts); the verbs'
 * code loads only when run.
 */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from './context.js';
import { version } from './version.js';
import { requestedGroup } from './argv.js';
import { GLOBAL_ATTRIBUTES, globalOptions } from './commands/shared.js';
import { toCommand, type Group, type Verb } from './commands/spec.js';
import { login } from './commands/login/definition.js';
import { config } from './commands/config/definition.js';
import { voice } from './commands/voice/definition.js';
import { agent } from './commands/agent/definition.js';
import { kb } from './commands/kb/definition.js';
import { contacts } from './commands/contacts/definition.js';
import { campaign } from './commands/campaign/definition.js';
import { watch } from './commands/watch/definition.js';
import { call } from './commands/call/definition.js';
import { test } from './commands/test/definition.js';
import { webhook } from './commands/webhook/definition.js';
import { listen } from './commands/listen/definition.js';
import { events } from './commands/events/definition.js';
import { trigger } from './commands/trigger/definition.js';
import { sandbox } from './commands/sandbox/definition.js';
import { demo } from './commands/demo/definition.js';
import { pull } from './commands/pull/definition.js';
import { plan } from './commands/plan/definition.js';
import { apply } from './commands/apply/definition.js';
import { schema } from './commands/schema/definition.js';
import { mcp } from './commands/mcp/definition.js';
import { approve } from './commands/approve/definition.js';
import { api } from './commands/api/definition.js';
import { doctor } from './commands/doctor/definition.js';
import { completion } from './commands/completion/definition.js';
import { sql } from './commands/sql/definition.js';

export { version };

/**
 * Every top-level command, in the order `voicectl --help` lists them: a group of verbs or a
 * verb of its own, each declared in its folder's definition.ts. `campaign watch` is the
 * `watch` verb listed again under campaign.
 */
export const COMMANDS: readonly (Group | Verb)[] = [
  login, config, voice, agent, kb, contacts, { ...campaign, verbs: [...campaign.verbs, watch] }, watch, call, test,
  webhook, listen, events, trigger, sandbox, demo, pull, plan, apply, schema, mcp, approve, api, sql, doctor, completion,
];

/** Thrown before any action runs when the program was built only to show help. */
export class ActionRequested extends Error {
  constructor() {
    super('a command was requested, not help');
    this.name = 'ActionRequested';
  }
}

/** Every top-level command's name. */
export const GROUP_NAMES: readonly string[] = COMMANDS.map((g) => g.name);

/**
 * Builds the program. With `argv`, only the group it asks for is built in full and the
 * others are one-line stubs (names and summaries, enough for help and suggestions):
 * building every verb and option costs more start-up time than all the rest.
 * Without `argv` (shell completion), everything is built.
 */
export function buildProgram(ctx: Context, argv?: string[], options: { helpOnly?: boolean } = {}): CommandUnknownOpts {
  const program = new Command('voicectl')
    .description('Run AI voice agents and calling campaigns from the terminal.')
    .version(version(), '-v, --version', 'print the version')
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  for (const opt of globalOptions()) program.addOption(opt);

  const wanted = argv ? requestedGroup(argv) : undefined;
  for (const g of COMMANDS) {
    const full = !argv || wanted === g.name || (g.alias !== undefined && wanted === g.alias);
    const cmd = full ? toCommand(g, ctx, buildProgram) : stub(g.name);
    // The line `voicectl --help` lists; a command's own help shows its description.
    cmd.summary(g.summary);
    if (!full) {
      cmd.description(g.summary);
      if (g.alias) cmd.alias(g.alias);
    }
    program.addCommand(cmd);
  }
  program.addCommand(globalsCommand(), { hidden: true });

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
    await ctx.io.loadColors();
  });
  return program;
}

/**
 * `voicectl help globals` (and `voicectl globals`): the global options, which a group's
 * help leaves out so that its commands come first. Hidden: not a command to run.
 */
function globalsCommand(): CommandUnknownOpts {
  const cmd = new Command('globals')
    .description('The options every command takes, before or after its verb: `voicectl --json call list` and `voicectl call list --json` are the same.');
  for (const opt of globalOptions()) cmd.addOption(opt);
  cmd.action(() => cmd.outputHelp());
  // Its options are the global ones: listed once, as its own.
  LISTS_GLOBALS.add(cmd);
  return cmd;
}

/** The line that ends a group's help, where a verb's help lists the global options. */
export const GLOBALS_HINT = 'Global options (--json, -o, --tz, --profile, --yes, …): voicectl help globals';

/** The global options added to a leaf (hidden copies), the `globals` command and the stubs: marked here, not on the objects. */
const GLOBAL_COPIES = new WeakSet<object>();
const LISTS_GLOBALS = new WeakSet<object>();
const STUBS = new WeakSet<object>();

/** A group that this command line does not use: a name and a summary, nothing to run. */
function stub(name: string): CommandUnknownOpts {
  const cmd = new Command(name);
  STUBS.add(cmd);
  return cmd;
}

function isGlobal(cmd: CommandUnknownOpts, attr: string): boolean {
  return cmd.options.some((o) => o.attributeName() === attr && GLOBAL_COPIES.has(o));
}

/**
 * Every command writes through the context's streams and throws instead of exiting;
 * every leaf also accepts the global options after its verb (`agent list --json`).
 */
function finish(cmd: CommandUnknownOpts, ctx: Context): void {
  cmd.exitOverride();
  // A verb's help lists the global options too (its own text tells you to pass --yes or
  // --json); a group's lists its commands and names where the global options are.
  const group = cmd.parent !== null && cmd.commands.length > 0;
  const globals = LISTS_GLOBALS.has(cmd);
  cmd.configureHelp({ showGlobalOptions: !group && !globals, sortSubcommands: false });
  if (group) cmd.addHelpText('after', `\n${GLOBALS_HINT}`);
  cmd.configureOutput({
    writeOut: (s) => ctx.io.stdout.write(s),
    writeErr: (s) => ctx.io.stderr.write(s),
    // Under errors as JSON, main.ts reports commander's error as one JSON object.
    outputError: (s, write) => { if (!ctx.jsonErrors) write(ctx.errColor.red(s)); },
    // The context's streams, not process.stdout: help goes where the context writes (80
    // columns, commander's own default, when it is not a terminal).
    getOutHelpWidth: () => ctx.io.helpWidth('stdout'),
    getErrHelpWidth: () => ctx.io.helpWidth('stderr'),
    // Help is plain text.
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  const leaf = cmd.commands.length === 0 && cmd.parent !== null && !STUBS.has(cmd);
  if (leaf) {
    for (const opt of globalOptions()) {
      const taken = cmd.options.some((o) => o.long === opt.long || (opt.short && o.short === opt.short));
      if (taken) continue;
      opt.hideHelp();
      GLOBAL_COPIES.add(opt);
      cmd.addOption(opt);
    }
  }
  for (const sub of cmd.commands) finish(sub, ctx);
}
