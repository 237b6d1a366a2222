/**
 * What every command file shares: the global options, and argument parsers that turn
 * bad flags into exit 2 before any request is sent.
 */
import { Command, InvalidArgumentError, Option, type OptionValues } from '@commander-js/extra-typings';
import { zoneOption } from '../util/time.js';

/** --adopt and --lock, the same for plan and apply. */
export function accountFileOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd
    .option('--adopt', 'take over resources of the same name that these files do not manage yet')
    .option('--lock <file>', 'lock file (default DIR/voicectl.lock.json)');
}

/** The flags an options definition (a function that adds options to a command) declares, with the types their parsers return. */
export type FlagsOf<F extends (...args: never[]) => unknown> = ReturnType<F> extends Command<infer _Args, infer O, infer _Global> ? O : never;

export const OUTPUT_FORMATS = ['table', 'json', 'jsonl', 'csv'] as const;

/** The global options of CLI.md. Each leaf command gets hidden copies, so they work after the verb too. */
export function globalOptions(): Option[] {
  return [
    new Option('--base-url <url>', 'the service\'s base address (env VOICECTL_BASE_URL)'),
    new Option('--api-key <key>', 'API key sent as X-API-Key; prefer VOICECTL_API_KEY, since flags show in process lists'),
    new Option('--profile <name>', 'saved profile to use (env VOICECTL_PROFILE, default "default")'),
    new Option('--json', 'print JSON on stdout (same as -o json)'),
    new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS),
    new Option('--jq <expression>', 'filter the JSON output with a jq expression; strings print raw (docs/scripting.md)'),
    new Option('--template <template>', 'print the JSON output through a Handlebars template (docs/scripting.md)'),
    new Option('--no-color', 'no colour (also NO_COLOR, TERM=dumb)'),
    new Option('--accessible', 'for screen readers: no spinners or redrawn lines, numbered choices, no colour (also VOICECTL_ACCESSIBLE=1)'),
    new Option('-y, --yes', 'answer yes to confirmations'),
    new Option('--no-input', 'never prompt; missing input is an error (also CI=true)'),
    new Option('--debug', 'trace HTTP requests on stderr, secrets redacted (also VOICECTL_DEBUG=1)'),
    new Option('--timeout <seconds>', 'deadline of each request, whole answer included, in seconds (default 30; env VOICECTL_TIMEOUT)').argParser(positiveNumber),
    new Option('--tz <zone>', 'time zone of the times shown and of dates typed without an offset, e.g. Asia/Kolkata (env VOICECTL_TZ, profile timezone; default the system\'s)').argParser(zoneOption),
  ];
}

export const GLOBAL_ATTRIBUTES = globalOptions().map((o) => o.attributeName());

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number.');
  return n;
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a whole number above 0.');
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number, 0 or more.');
  return n;
}

/** A TCP port: 0 (any free one) to 65535. */
export function portNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free one).');
  return n;
}

/** --port and --host of a verb that serves on this machine (listen, sandbox). */
export function serveOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>, defaultPort: number) {
  return cmd
    .option('--port <n>', 'port to listen on (0 picks a free one)', portNumber, defaultPort)
    .option('--host <address>', 'address to listen on', '127.0.0.1');
}

/** --limit: the service takes 1..200. */
export function pageLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 200) throw new InvalidArgumentError('expected a whole number from 1 to 200.');
  return n;
}

/** A comma-separated list, trimmed, repeated flags accumulate. */
export function commaList(value: string, previous: string[] | undefined): string[] {
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  return [...(previous ?? []), ...items];
}

/**
 * The help paragraph of a verb that prints a table: the columns it keeps at any terminal
 * width (tests hold the tables to it), and what a narrow terminal does to the others.
 */
export function tableHelp(kept: readonly string[], note = ''): string {
  return `Columns kept at any width: ${kept.join(', ')}.${note ? ` ${note}` : ''} On a narrow terminal, ids are cut to a prefix unique in the list and other columns are left out; --json has everything.`;
}
