/**
 * The options of `voicectl api`, declared once (see agent/definition.ts).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** -f/-F repeat: each adds one field. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export const API_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

/** @internal */
export function requestOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('-f, --raw-field <key=value>', 'a string field: the query of a GET, the JSON body otherwise (repeatable)', collect)
    .option('-F, --field <key=value>', 'a typed field: true, false, null, numbers, [..] and {..} as JSON, @FILE for a file\'s text (repeatable)', collect)
    .option('--input <file>', 'the request body, JSON, from a file or - for stdin')
    .option('--paginate', 'GET every page (limit/offset) and print one merged list');
}

/** @internal */
export type RequestFlags = FlagsOf<typeof requestOptions>;
