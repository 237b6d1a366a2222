import { Command } from 'commander';
import type { Context } from '../context.js';
import { group, lazy, positiveNumber } from './shared.js';

/** Repeated --fail-if flags add up; the expression is parsed by the verb, before any request. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The arguments and options of `watch`, shared by `voicectl watch` and `voicectl campaign watch`. */
export function watchVerb(ctx: Context, cmd: Command): Command {
  return cmd
    .description('Follow a campaign live until it completes: progress, finished calls, a final summary')
    .argument('<campaign_id>', 'the campaign to watch')
    .option('--interval <seconds>', 'seconds between polls', positiveNumber, 2)
    // Not the global request timeout: how long to wait for the campaign to complete.
    .option('--timeout <seconds>', 'stop with exit 1 if the campaign has not completed after this many seconds', positiveNumber)
    .option(
      '--fail-if <expr>',
      'exit 1 when the finished campaign crosses a line, e.g. "failed>5%", "no_answer>=100", "completed<50%" '
        + '(contact statuses or call outcomes; > >= < <= =; a percentage of all contacts or a count; comma-separated)',
      collect,
    )
    .addHelpText('after', `
Off a terminal it prints one line per change; with --json, one JSON object per line:
{"type":"progress",...}, {"type":"call",...} for each finished call, {"type":"completed","summary":{...}}.
Exit codes: 0 completed (and no --fail-if line crossed), 1 --timeout or --fail-if, 4 no such campaign, 130 Ctrl-C.`)
    .addHelpText('after', `\nExamples:\n  voicectl watch CAMPAIGN_ID\n  voicectl watch CAMPAIGN_ID --json --fail-if "failed>5%" --timeout 3600`)
    .action(lazy(ctx, () => import('./watch/watch.js')));
}

export function watchCommand(ctx: Context): Command {
  return watchVerb(ctx, group('watch'));
}
