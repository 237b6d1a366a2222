/**
 * The options of `voicectl api`, declared once (see agent/definition.ts).
 */
import { Option, type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** -f/-F repeat: each adds one field. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * `--input FILE`, as gh spells it, kept as `inputFile`: the global `--no-input` is kept as
 * `input`, and one attribute for both would let `--no-input` drop the body.
 */
function bodyFileOption() {
  const option = new Option('--input <file>', 'the request body, JSON, from a file or - for stdin');
  option.attributeName = () => 'inputFile';
  return option as unknown as Option<'--input-file <file>'>;
}

export const API_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

/** @internal */
export function requestOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('-f, --raw-field <key=value>', 'a string field: the query of a GET, the JSON body otherwise (repeatable)', collect)
    .option('-F, --field <key=value>', 'a typed field: true, false, null, numbers, [..] and {..} as JSON, @FILE for a file\'s text (repeatable)', collect)
    .addOption(bodyFileOption())
    .option('--paginate', 'GET every page (limit/offset) and print one merged list');
}

/** @internal */
export type RequestFlags = FlagsOf<typeof requestOptions>;
