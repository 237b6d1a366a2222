import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { timeOption } from '../../util/time.js';
import { group, lazy } from '../shared.js';
import { checkOptions, exportOptions, listOptions, pinOptions, recordingOptions, tailOptions } from './definition.js';

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

  checkOptions(call
    .command('check')
    .description('Check calls against rules: disclosure, phrases, opt-outs, language, hours, do-not-call, a judge'), time)
    .addHelpText('after', `
Calls come from --campaign, --since (--until), --call, or --from-file (a folder written by
calls pin, or JSON lines from call export --transcripts). Each call is read with its
transcript. The rules file is YAML with a rules: list; each rule has an id, a kind and a
severity (error or warn). Kinds: first_agent_turn_matches, never_says, opt_out_honoured,
max_duration, outcome_in, language, within_calling_hours, not_suppressed, judge. A bad
rules file is refused before any request, with its line (exit 2). Exits 1 when a rule of
severity error fails. See docs/quality.md.

Examples:
  voicectl calls check --rules rules.yaml --campaign CAMPAIGN_ID
  voicectl calls check --rules rules.yaml --since 24h --sample 50 --seed 1 --junit checks.xml
  voicectl calls check --rules rules.yaml --campaign CAMPAIGN_ID --format md >> summary.md
  voicectl calls check --rules rules.yaml --campaign CAMPAIGN_ID --harvest-dnc do-not-call.txt`)
    .action(lazy(ctx, () => import('./check.js')));

  pinOptions(call
    .command('pin')
    .description('Write calls, transcripts included, as fixtures that calls check --from-file reads')
    .argument('<call_id...>', 'the calls to pin'))
    .addHelpText('after', `
Each call becomes DIR/CALL_ID.json, with its agent's language beside it. --redact
replaces the contact's name, the number and every extra value by placeholders that stay
the same from one pin to the next on this machine. A failing call becomes a test case
kept in git.

Examples:
  voicectl calls pin CALL_ID --to test/calls
  voicectl calls pin CALL_ID --to test/calls --redact
  voicectl calls check --rules rules.yaml --from-file test/calls`)
    .action(lazy(ctx, () => import('./pin.js')));

  return call;
}
