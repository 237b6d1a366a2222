import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { timeOption } from '../../util/time.js';
import { group, lazy } from '../shared.js';
import { exportOptions, listOptions, recordingOptions, tailOptions } from './definition.js';

const TIMES_HELP = `
Times (--since, --until) filter on the call's start time and accept:
  2024-05-01T09:30:00+05:30   ISO 8601; without an offset, a time in the --tz zone
  2024-05-01                  a date: midnight in the --tz zone
  90m, 24h, 7d, 2w            a span back from now
They are sent in UTC with Z. The --tz zone (else VOICECTL_TZ, the profile's timezone,
the system's) is also the one times are shown in; --json, JSON lines and CSV stay UTC.`;

export function callCommand(ctx: Context): CommandUnknownOpts {
  const call = group('call');
  const time = timeOption(() => ctx.now());

  listOptions(call
    .command('list')
    .alias('ls')
    .description('List calls, filtered by campaign, start time or status'), time)
    .addHelpText('after', TIMES_HELP)
    .addHelpText('after', `\nExamples:\n  voicectl call list --since 24h\n  voicectl call list --since 2026-11-26 --tz Asia/Kolkata\n  voicectl call list --campaign CAMPAIGN_ID --status completed --all -o csv > calls.csv`)
    .action(lazy(ctx, () => import('./list.js')));

  call
    .command('get')
    .description('Show one call with its transcript')
    .argument('<call_id>', 'the call\'s id')
    .addHelpText('after', `\nExamples:\n  voicectl call get CALL_ID\n  voicectl call get CALL_ID --json | jq .transcript`)
    .action(lazy(ctx, () => import('./get.js')));

  recordingOptions(call
    .command('recording')
    .description('Print a fresh link to the call\'s recording, or download it')
    .argument('<call_id>', 'the call\'s id'))
    .addHelpText('after', `\nExamples:\n  voicectl call recording CALL_ID\n  voicectl call recording CALL_ID --download call.mp3`)
    .action(lazy(ctx, () => import('./recording.js')));

  tailOptions(call
    .command('tail')
    .description('Print every call as it finishes, across campaigns, until Ctrl-C'), time)
    .addHelpText('after', `
Each line fits the terminal, times in the --tz zone (named); with --json, one call per
line as GET /calls lists it (JSON lines); notices go to stderr. --since as for call list,
read in the --tz zone. Each poll reads only calls started since the oldest one still in progress;
calls unfinished two hours after they started are no longer followed. See docs/tail.md.

Examples:
  voicectl call tail
  voicectl call tail --campaign CAMPAIGN_ID --status completed
  voicectl call tail --json --since 30m | jq -r '.phone_number + " " + .outcome'`)
    .action(lazy(ctx, () => import('./tail.js')));

  exportOptions(call
    .command('export')
    .description('Stream every matching call to CSV, JSONL or an Excel workbook'), time)
    .addHelpText('after', `${TIMES_HELP}

An .xlsx workbook is for people: phone numbers and ids stay text, times are dates. CSV
(RFC 4180) and JSONL are for programs. Columns and incremental exports: see docs/export.md.`)
    .addHelpText('after', `\nExamples:\n  voicectl call export --campaign CAMPAIGN_ID --out calls.csv\n  voicectl call export --since 7d --format xlsx --out week.xlsx\n  voicectl call export --campaign CAMPAIGN_ID --format jsonl --transcripts > calls.jsonl`)
    .action(lazy(ctx, () => import('./export.js')));

  return call;
}
