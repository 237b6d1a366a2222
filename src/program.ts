/**
 * Builds the commander program. Group files define their verbs and options; the verbs'
 * code loads only when run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import type { Context } from './context.js';
import { packageRoot } from './paths.js';
import { GLOBAL_ATTRIBUTES, globalOptions } from './commands/shared.js';
import { agentCommand } from './commands/agent/index.js';
import { kbCommand } from './commands/kb/index.js';
import { campaignCommand } from './commands/campaign/index.js';
import { contactsCommand } from './commands/contacts/index.js';
import { watchCommand } from './commands/watch/index.js';
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

declare const __VOICECTL_VERSION__: string | undefined;

/** Set by the build; read from package.json when running from source (tests). */
export function version(): string {
  if (typeof __VOICECTL_VERSION__ === 'string') return __VOICECTL_VERSION__;
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export function buildProgram(ctx: Context): Command {
  const program = new Command('voicectl')
    .description('Run AI voice agents and calling campaigns from the terminal.')
    .version(version(), '-v, --version', 'print the version')
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  for (const opt of globalOptions()) program.addOption(opt);

  program.addCommand(loginCommand(ctx));
  program.addCommand(configCommand(ctx));
  program.addCommand(voiceCommand(ctx));
  program.addCommand(agentCommand(ctx));
  program.addCommand(kbCommand(ctx));
  program.addCommand(contactsCommand(ctx));
  program.addCommand(campaignCommand(ctx));
  program.addCommand(watchCommand(ctx));
  program.addCommand(callCommand(ctx));
  program.addCommand(webhookCommand(ctx));
  program.addCommand(listenCommand(ctx));
  program.addCommand(triggerCommand(ctx));
  program.addCommand(completionCommand(ctx));
  program.addCommand(sandboxCommand(ctx));
  program.addCommand(demoCommand(ctx));

  finish(program, ctx);

  program.hook('preAction', (_root, action) => {
    const merged: Record<string, unknown> = { ...program.opts() };
    const leaf = action.opts();
    for (const name of GLOBAL_ATTRIBUTES) {
      if (action.getOptionValueSource(name) === 'cli' && isGlobal(action, name)) merged[name] = leaf[name];
    }
    ctx.opts = merged;
  });
  return program;
}

const GLOBAL_MARK = Symbol('voicectl.global');

function isGlobal(cmd: Command, attr: string): boolean {
  return cmd.options.some((o) => o.attributeName() === attr && (o as unknown as Record<symbol, boolean>)[GLOBAL_MARK]);
}

/**
 * Every command writes through the context's streams and throws instead of exiting;
 * every leaf also accepts the global options after its verb (`agent list --json`).
 */
function finish(cmd: Command, ctx: Context): void {
  cmd.exitOverride();
  cmd.configureOutput({
    writeOut: (s) => ctx.io.stdout.write(s),
    writeErr: (s) => ctx.io.stderr.write(s),
    outputError: (s, write) => write(ctx.errColor.red(s)),
  });
  const leaf = cmd.commands.length === 0 && cmd.parent !== null;
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
