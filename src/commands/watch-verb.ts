import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { group, lazy } from './shared.js';
import { watchOptions } from './watch/definition.js';

/** The arguments and options of `watch`, shared by `voicectl watch` and `voicectl campaign watch`. */
export function watchVerb(ctx: Context, cmd: Command) {
  return watchOptions(cmd
    .description('Follow a campaign live until it completes: progress, finished calls, a final summary')
    .argument('<campaign_id>', 'the campaign to watch'))
    .addHelpText('after', `
Off a terminal it prints one line per change; with --json, one JSON object per line:
{"type":"progress",...}, {"type":"call",...} for each finished call, {"type":"completed","summary":{...}}.
Exit codes: 0 completed (and no --fail-if line crossed), 1 --timeout or --fail-if, 4 no such campaign, 130 Ctrl-C.`)
    .addHelpText('after', `
With --serve it prints a link to the live report page on 127.0.0.1 (the link holds an
unguessable token; any other address is 404) and serves it until Ctrl-C, for a manager
who is not at the terminal: the page updates as calls finish.`)
    .addHelpText('after', `\nExamples:\n  voicectl watch CAMPAIGN_ID\n  voicectl watch CAMPAIGN_ID --json --fail-if "failed>5%" --timeout 3600\n  voicectl watch CAMPAIGN_ID --serve`)
    .action(lazy(ctx, () => import('./watch/watch.js')));
}

export function watchCommand(ctx: Context): CommandUnknownOpts {
  return watchVerb(ctx, group('watch'));
}
