/**
 * `voicectl api`, declared once (src/commands/spec.ts; see agent/definition.ts).
 */
import { Argument, Option, type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type RequestFlags = FlagsOf<typeof requestOptions>;

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

/** @internal */
export const api = verb({
  name: 'api', summary: 'Send any request to the service with the profile\'s key; print the JSON answer', options: requestOptions, action: () => import('./request.js'),
  description: `Send a request to the service with the profile's address and key, and print the JSON answer.

Reaches every endpoint, including the ones voicectl has no verb for. GETs are retried as
everywhere in voicectl; POST, PATCH, PUT and DELETE are sent once, and ask first on a
terminal (--yes otherwise). Exit codes follow the table of \`voicectl --help\`.`,
  arguments: [
    new Argument('<method>', 'GET, POST, PATCH, PUT or DELETE'),
    new Argument('<path>', 'a path under the base URL, such as /agents or /calls?status=completed'),
  ],
  examples: [{ command: 'voicectl api GET /agents --paginate' }, { command: 'voicectl api GET /calls -f status=completed -F limit=5' }, { command: 'voicectl api POST /agents -f name=Desk -f voice_name=Aarav -f greeting=Hello -f call_purpose=Support -f prompt="Be brief." -F \'tools=["take_message"]\' --yes' }, { command: 'echo \'{"greeting":"Namaste!"}\' | voicectl api PATCH /agents/AGENT_ID --input - --yes' }],
});

/** @internal */
export function requestOptions(cmd: Command) {
  return cmd
    .option('-f, --raw-field <key=value>', 'a string field: the query of a GET, the JSON body otherwise (repeatable)', collect)
    .option('-F, --field <key=value>', 'a typed field: true, false, null, numbers, [..] and {..} as JSON, @FILE for a file\'s text (repeatable)', collect)
    .addOption(bodyFileOption())
    .option('--paginate', 'GET every page (limit/offset) and print one merged list');
}
