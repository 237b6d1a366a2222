/**
 * The program's shape, read from the commander program itself, so completion scripts
 * list exactly the commands, aliases and flags the parser accepts.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { oneLine, singleQuote } from '../../io/text.js';

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
