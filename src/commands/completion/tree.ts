/**
 * The program's shape, read from the commander program itself, so completion scripts
 * list exactly the commands, aliases and flags the parser accepts.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { oneLine, singleQuote } from '../../text/text.js';

export interface OptionSpec {
  /** `-o`, `--output`: short first. */
  flags: string[];
  takesValue: boolean;
  choices?: string[];
  description: string;
}

export interface CommandSpec {
  /** Canonical words from the root, for example "voicectl agent create". */
  path: string;
  /** The name and its aliases (`agent`, `agents`). */
  names: string[];
  description: string;
  options: OptionSpec[];
  children: CommandSpec[];
  /** Choices of each positional argument, by position (undefined: any value). */
  argChoices: (string[] | undefined)[];
}

const HELP: OptionSpec = { flags: ['-h', '--help'], takesValue: false, description: 'show help' };

export function describeProgram(program: CommandUnknownOpts): CommandSpec {
  return describe(program, program.name());
}

function describe(cmd: CommandUnknownOpts, path: string): CommandSpec {
  const options: OptionSpec[] = cmd.options.map((o) => ({
    flags: [o.short, o.long].filter((f): f is string => typeof f === 'string'),
    // An optional value (`--flag [v]`) cannot be told from the next word, so only required ones consume it.
    takesValue: o.required,
    choices: o.argChoices ? [...o.argChoices] : undefined,
    description: o.description ?? '',
  }));
  if (!options.some((o) => o.flags.includes('--help'))) options.push(HELP);
  const children = cmd.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .map((c) => describe(c, `${path} ${c.name()}`));
  return {
    path,
    names: [cmd.name(), ...cmd.aliases()],
    description: cmd.description() ?? '',
    options,
    children,
    argChoices: cmd.registeredArguments.map((a) => (a.argChoices ? [...a.argChoices] : undefined)),
  };
}

/** Every command, root first, depth first. */
export function flatten(root: CommandSpec): CommandSpec[] {
  return [root, ...root.children.flatMap(flatten)];
}


/** Single-quotes a word for sh-like shells (bash, zsh and fish all read `'\''`). */
export const sq = singleQuote;

/** Candidate words for the next word after a command: its subcommands and their aliases. */
export function childWords(cmd: CommandSpec): { word: string; description: string }[] {
  return cmd.children.flatMap((c) => c.names.map((word) => ({ word, description: oneLine(c.description, 80) })));
}

export function flagWords(cmd: CommandSpec): { word: string; description: string }[] {
  return cmd.options.flatMap((o) => o.flags.map((word) => ({ word, description: oneLine(o.description, 80) })));
}

export interface Word {
  word: string;
  description: string;
}

/**
 * What every completion script looks up, as rows: bash, zsh and fish walk the command
 * line the same way, and differ only in how they spell these tables.
 */
export interface Lookups {
  /** The script's command name, and the prefix of its functions' names. */
  name: string;
  fn: string;
  /** Each subcommand: the `parent word` keys that name it (its name and aliases), and its path. */
  children: { keys: string[]; path: string }[];
  /** The flags of a command that take a value (the next word is that value). */
  takesValue: { path: string; flags: string[] }[];
  /** The flags of a command whose value is one of a few choices. */
  values: { path: string; options: { flags: string[]; choices: string[] }[] }[];
  /** What may come as positional word N of a command (`path N`): its subcommands, or an argument's choices. */
  positional: { key: string; commands?: Word[]; choices?: string[] }[];
  /** Every command's flags. */
  flags: { path: string; words: Word[] }[];
}

export function lookups(root: CommandSpec, fnPrefix: string): Lookups {
  const all = flatten(root);
  const name = root.names[0]!;
  return {
    name,
    fn: `${fnPrefix}${name.replace(/[^A-Za-z0-9_]/g, '_')}`,
    children: all.flatMap((cmd) => cmd.children.map((child) => ({ keys: child.names.map((n) => `${cmd.path} ${n}`), path: child.path }))),
    takesValue: all
      .map((cmd) => ({ path: cmd.path, flags: cmd.options.filter((o) => o.takesValue).flatMap((o) => o.flags) }))
      .filter((row) => row.flags.length > 0),
    values: all
      .map((cmd) => ({ path: cmd.path, options: cmd.options.filter((o) => o.takesValue && o.choices).map((o) => ({ flags: o.flags, choices: o.choices! })) }))
      .filter((row) => row.options.length > 0),
    positional: all.flatMap((cmd): Lookups['positional'] => (cmd.children.length > 0
      ? [{ key: `${cmd.path} 0`, commands: childWords(cmd) }]
      : cmd.argChoices.flatMap((choices, i) => (choices ? [{ key: `${cmd.path} ${i}`, choices }] : [])))),
    flags: all.map((cmd) => ({ path: cmd.path, words: flagWords(cmd) })),
  };
}

/**
 * A bash or zsh function that looks `subject` up in `arms` (both shells spell `case` alike).
 * It fails when nothing matches: with a `*)` arm, or after the `case`.
 */
export function shCase(name: string, subject: string, arms: string[], failure: 'arm' | 'after', comment?: string): string[] {
  return [
    ...(comment ? [comment] : []),
    `${name}() {`,
    `  case ${subject} in`,
    ...arms.map((arm) => `    ${arm}`),
    ...(failure === 'arm' ? ['    *) return 1 ;;', '  esac'] : ['  esac', '  return 1']),
    '}',
    '',
  ];
}
