/**
 * `watch`, declared once (src/commands/spec.ts), and listed again as `campaign watch`: its
 * flags type is derived from its options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, type Command } from '@commander-js/extra-typings';
import { portNumber, positiveNumber, type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type WatchFlags = FlagsOf<typeof watchOptions>;

/** Repeated --fail-if flags add up; the expression is parsed by the verb, before any request. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** @internal */
export const watch = verb({
  name: 'watch', summary: 'Follow a campaign live until it completes', options: watchOptions, action: () => import('./watch.js'),
  description: 'Follow a campaign live until it completes: progress, finished calls, a final summary',
  arguments: [new Argument('<campaign_id>', 'the campaign to watch')],
  help: [
    `Off a terminal it prints one line per change; with --json, one JSON object per line:
{"type":"progress",...}, {"type":"call",...} for each finished call, {"type":"completed","summary":{...}}.
Exit codes: 0 completed (and no --fail-if line crossed), 1 --timeout or --fail-if, 4 no such campaign, 130 Ctrl-C.`,
    `With --serve it prints a link to the live report page on 127.0.0.1 (the link holds an
unguessable token; any other address is 404) and serves it until Ctrl-C, for a manager
who is not at the terminal: the page updates as calls finish.`,
  ],
  examples: [{ command: 'voicectl watch CAMPAIGN_ID' }, { command: 'voicectl watch CAMPAIGN_ID --json --fail-if "failed>5%" --timeout 3600' }, { command: 'voicectl watch CAMPAIGN_ID --serve' }],
});

/** @internal */
export function watchOptions(cmd: Command) {
  return cmd
    .option('--interval <seconds>', 'seconds between polls', positiveNumber, 2)
    .option('--serve [port]', 'serve the live report page on 127.0.0.1 (PORT, default any free one) under an unguessable link, until Ctrl-C', portNumber)
    // Not the global request timeout: how long to wait for the campaign to complete.
    .option('--timeout <seconds>', 'stop with exit 1 if the campaign has not completed after this many seconds', positiveNumber)
    .option(
      '--fail-if <expr>',
      'exit 1 when the finished campaign crosses a line, e.g. "failed>5%", "no_answer>=100", "completed<50%" '
        + '(contact statuses or call outcomes; > >= < <= =; a percentage of all contacts or a count; comma-separated)',
      collect,
    );
}
