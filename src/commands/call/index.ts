import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { timeOption } from '../../util/time.js';
import { group, lazy, nonNegativeInt, pageLimit, positiveInt, positiveNumber } from '../shared.js';

const TIMES_HELP = `
Times (--since, --until) filter on the call's start time and accept:
  2024-05-01T09:30:00+05:30   ISO 8601; without an offset the time is UTC
  2024-05-01                  a date: midnight UTC
  90m, 24h, 7d, 2w            a span back from now`;

export function callCommand(ctx: Context): Command {
  const call = group('call');
  const time = timeOption(() => ctx.now());

  call
    .command('list')
    .alias('ls')
    .description('List calls, filtered by campaign, start time or status')
    .option('--campaign <id>', 'only calls of this campaign')
    .option('--since <time>', 'calls that started at or after this time', time)
    .option('--until <time>', 'calls that started before this time', time)
    .option('--status <status>', 'only calls with this status, for example completed')
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200 (default 50)', pageLimit)
    .option('--offset <n>', 'skip this many calls', nonNegativeInt)
    .addHelpText('after', TIMES_HELP)
    .addHelpText('after', `\nExamples:\n  voicectl call list --since 24h\n  voicectl call list --campaign CAMPAIGN_ID --status completed --all -o csv > calls.csv`)
    .action(lazy(ctx, () => import('./list.js')));

  call
    .command('get')
    .description('Show one call with its transcript')
    .argument('<call_id>', 'the call\'s id')
    .addHelpText('after', `\nExamples:\n  voicectl call get CALL_ID\n  voicectl call get CALL_ID --json | jq .transcript`)
    .action(lazy(ctx, () => import('./get.js')));

  call
    .command('recording')
    .description('Print a fresh link to the call\'s recording, or download it')
    .argument('<call_id>', 'the call\'s id')
    .option('--download <file>', 'save the audio to FILE (- for stdout)')
    .addHelpText('after', `\nExamples:\n  voicectl call recording CALL_ID\n  voicectl call recording CALL_ID --download call.mp3`)
    .action(lazy(ctx, () => import('./recording.js')));

  call
    .command('tail')
    .description('Print every call as it finishes, across campaigns, until Ctrl-C')
    .option('--campaign <id>', 'only calls of this campaign')
    .option('--status <status>', 'only calls that finish with this status, for example completed')
    .option('--since <time>', 'also calls that started at or after this time and have already finished (default: only calls that finish from now on)', time)
    .option('--interval <seconds>', 'seconds between polls', positiveNumber, 2)
    .addHelpText('after', `
With --json, one call per line as GET /calls lists it (JSON lines); notices go to
stderr. Each poll reads only calls started since the oldest one still in progress;
calls unfinished two hours after they started are no longer followed. See docs/tail.md.

Examples:
  voicectl call tail
  voicectl call tail --campaign CAMPAIGN_ID --status completed
  voicectl call tail --json --since 30m | jq -r '.phone_number + " " + .outcome'`)
    .action(lazy(ctx, () => import('./tail.js')));

  call
    .command('export')
    .description('Stream every matching call to CSV, JSONL or an Excel workbook')
    .option('--campaign <id>', 'only calls of this campaign')
    .option('--since <time>', 'calls that started at or after this time', time)
    .option('--until <time>', 'calls that started before this time', time)
    .option('--status <status>', 'only calls with this status')
    .addOption(new Option('--format <format>', 'csv, jsonl or xlsx (default: from --out\'s extension, else csv)').choices(['csv', 'jsonl', 'xlsx']))
    .option('--out <file>', 'write to FILE (complete or not at all) instead of stdout')
    .option('--transcripts', 'add each call\'s transcript (one more request per call)')
    .option('--recordings <dir>', 'also download each call\'s recording into DIR, skipping files already there')
    .option('--since-last', 'only calls newer than the last successful run (needs --state)')
    .option('--state <file>', 'where --since-last keeps its high-water mark')
    .option('--concurrency <n>', 'requests in flight at once (default 8, at most 32)', positiveInt)
    .addHelpText('after', `${TIMES_HELP}

An .xlsx workbook is for people: phone numbers and ids stay text, times are dates. CSV
(RFC 4180) and JSONL are for programs. Columns and incremental exports: see docs/export.md.`)
    .addHelpText('after', `\nExamples:\n  voicectl call export --campaign CAMPAIGN_ID --out calls.csv\n  voicectl call export --since 7d --format xlsx --out week.xlsx\n  voicectl call export --campaign CAMPAIGN_ID --format jsonl --transcripts > calls.jsonl`)
    .action(lazy(ctx, () => import('./export.js')));

  return call;
}
