/**
 * A verb declared once: its name, alias, summary, arguments, options, help paragraphs,
 * examples and action, in one object (oclif's `static flags` and `examples`, Vercel's
 * `command.ts`). `toCommand` is the one place a spec becomes a commander command, so every
 * help is laid out the same way; the help-example test reads the examples as data.
 *
 * The options stay a builder function over a commander command: the flags type is what
 * the parser returns (`FlagsOf<typeof listOptions>`), and the action module's parameters
 * are checked against the arguments and options here.
 */
import { Command, type Argument, type CommandUnknownOpts, type InferArgument, type OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';

/** One example of a help's "Examples:" block. */
export interface Example {
  /** The command as typed; several strings are one command continued over lines (` \`). */
  command: string | readonly string[];
  /** What it shows, printed after it as a shell comment. */
  comment?: string;
}

/**
 * The values commander hands the action for these arguments, with their parsers' types.
 * (The arguments are typed `unknown[]` where declared: an `Argument` there would lend its
 * type parameters to each `new Argument(...)` and lose what the usage string says.)
 */
export type ArgsOf<T extends readonly unknown[]> = {
  -readonly [K in keyof T]: T[K] extends Argument<infer U extends string, infer D, infer C, infer R extends boolean | undefined, infer Ch>
    ? InferArgument<U, D, C, R, Ch>
    : never;
};

/** The flags the options add, with the types their parsers return. */
type OptsOf<C> = C extends Command<infer _Args extends unknown[], infer O extends OptionValues, infer _G extends OptionValues> ? O : never;

/** What commander passes an action: the arguments, the flags, the command. */
type ActionArgs<A extends readonly unknown[], C> = [...ArgsOf<A>, OptsOf<C>, Command<ArgsOf<A>, OptsOf<C>>];

/** Builds the program (program.ts passes its own): for the verbs that run or describe other verbs. */
export type BuildProgram = (ctx: Context, argv?: string[]) => CommandUnknownOpts;

export interface Verb<A extends readonly unknown[] = readonly unknown[], C = CommandUnknownOpts> {
  name: string;
  alias?: string;
  /** One line. A verb's parent lists it by its description, a top-level command by this. */
  summary: string;
  /** What its own help opens with, when that says more than the summary. */
  description?: string;
  arguments?: A;
  /**
   * Adds the options to the command (`listOptions`). It is handed the command with its
   * arguments already added, typed loosely (`Command<any>`) so that it never depends on
   * them: TypeScript then reads the flags type off any builder, generic or not.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  options?: (cmd: Command<any>, ctx: Context) => C;
  /** Paragraphs after the options, before the examples. */
  help?: readonly string[];
  examples: readonly Example[];
  /**
   * The module that runs the verb, loaded only when it runs: start-up pays for the
   * declarations and nothing else. Its default export takes `(ctx, ...arguments, flags, command)`.
   */
  action?: () => Promise<{ default: (ctx: Context, ...args: ActionArgs<A, NoInfer<C>>) => void | Promise<void> }>;
  /** Instead of `action`, for a verb that also needs the program itself (mcp, completion). */
  run?: (ctx: Context, build: BuildProgram, ...args: ActionArgs<A, NoInfer<C>>) => Promise<void>;
}

/** A top-level command with verbs under it (`agent`, `campaign`). */
export interface Group {
  name: string;
  alias?: string;
  summary: string;
  /** Paragraphs after the group's own options and verbs. */
  help?: readonly string[];
  verbs: readonly Verb[];
}

/** Declares a verb; the types tie its action to its arguments and options. */
export function verb<const A extends readonly unknown[] = [], C = Command>(spec: Verb<A, C>): Verb {
  return spec as unknown as Verb;
}

export function isGroup(spec: Group | Verb): spec is Group {
  return 'verbs' in spec;
}

/** The lines of a help's "Examples:" block; comments line up two spaces after the longest commented command. */
export function exampleLines(examples: readonly Example[]): string[] {
  const text = (e: Example) => (typeof e.command === 'string' ? e.command : e.command.join(' \\\n    '));
  const width = Math.max(0, ...examples.filter((e) => e.comment).map((e) => text(e).length));
  return examples.map((e) => `  ${e.comment ? `${text(e).padEnd(width)}  # ${e.comment}` : text(e)}`);
}

/** The command an example runs, continuation lines joined. */
export function exampleCommand(example: Example): string {
  return typeof example.command === 'string' ? example.command : example.command.join(' ');
}

function addHelp(cmd: CommandUnknownOpts, help: readonly string[] | undefined, examples: readonly Example[]): void {
  for (const paragraph of help ?? []) cmd.addHelpText('after', `\n${paragraph}`);
  if (examples.length > 0) cmd.addHelpText('after', `\nExamples:\n${exampleLines(examples).join('\n')}`);
}

/** A top-level command or a verb, as commander builds and parses it. */
export function toCommand(spec: Group | Verb, ctx: Context, build: BuildProgram): CommandUnknownOpts {
  const cmd = new Command(spec.name);
  if (spec.alias) cmd.alias(spec.alias);
  if (isGroup(spec)) {
    cmd.description(spec.summary);
    for (const v of spec.verbs) cmd.addCommand(toCommand(v, ctx, build));
    addHelp(cmd, spec.help, []);
    return cmd;
  }
  cmd.description(spec.description ?? spec.summary);
  for (const a of spec.arguments ?? []) cmd.addArgument(a as Argument);
  const built = (spec.options ? spec.options(cmd, ctx) : cmd) as Command;
  addHelp(built, spec.help, spec.examples);
  type Loose = (...args: unknown[]) => void | Promise<void>;
  const { action, run } = spec as { action?: () => Promise<{ default: Loose }>; run?: Loose };
  built.action(async (...args: unknown[]) => {
    if (run) await run(ctx, build, ...args);
    else await (await action!()).default(ctx, ...args);
  });
  return built;
}
