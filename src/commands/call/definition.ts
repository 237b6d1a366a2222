/**
 * The call verbs, each declared once (src/commands/spec.ts): each verb's flags type is
 * derived from its options, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, Option, type Command } from '@commander-js/extra-typings';
import { nonNegativeInt, pageLimit, positiveInt, positiveNumber, type FlagsOf, tableHelp } from '../shared.js';
import { timeOption, type TypedTime } from '../../util/time.js';
import type { Context } from '../../context.js';
import { verb, type Group } from '../spec.js';

/** @internal */
export type ListFlags = FlagsOf<typeof listOptions>;
/** @internal */
export type RecordingFlags = FlagsOf<typeof recordingOptions>;
/** @internal */
export type TailFlags = FlagsOf<typeof tailOptions>;
/** @internal */
export type ExportFlags = FlagsOf<typeof exportOptions>;

/** @internal */
export type CheckFlags = FlagsOf<typeof checkOptions>;
/** @internal */
export type PinFlags = FlagsOf<typeof pinOptions>;

type TimeParser = (value: string) => TypedTime;

/** The campaign and start-time filters that list and export share. @internal */
function filterOptions(cmd: Command, time: TimeParser) {
  return cmd
    .option('--campaign <id>', 'only calls of this campaign')
    .option('--since <time>', 'calls that started at or after this time', time)
    .option('--until <time>', 'calls that started before this time', time);
}

const TIMES_HELP = `Times (--since, --until) filter on the call's start time and accept:
  2024-05-01T09:30:00+05:30   ISO 8601; without an offset, a time in the --tz zone
  2024-05-01                  a date: midnight in the --tz zone
  90m, 24h, 7d, 2w            a span back from now
They are sent in UTC with Z. The --tz zone (else VOICECTL_TZ, the profile's timezone,
the system's) is also the one times are shown in; --json, JSON lines and CSV stay UTC.`;

/** Times typed after the verb, read against the context's clock. */
const timeIn = (ctx: Context) => timeOption(() => ctx.now());
const callArgument = () => new Argument('<call_id>', 'the call\'s id');

/** @internal */
export const call: Group = {
  name: 'call', alias: 'calls', summary: 'Read call results, transcripts and recordings; export them; check them against rules',
  verbs: [
    verb({ name: 'list', alias: 'ls', summary: 'List calls, filtered by campaign, start time or status', action: () => import('./list.js'),
      options: (cmd: Command, ctx: Context) => listOptions(cmd, timeIn(ctx)),
      help: [TIMES_HELP, tableHelp(['TIME', 'CALL ID', 'NUMBER', 'STATUS', 'DURATION'], 'At a terminal the newest calls come first; --json, JSON lines and CSV keep the service\'s order.')],
      examples: [{ command: 'voicectl call list --since 24h' }, { command: 'voicectl call list --since 2026-11-26 --tz Asia/Kolkata' }, { command: 'voicectl call list --campaign CAMPAIGN_ID --status completed --all -o csv > calls.csv' }] }),
    verb({ name: 'get', summary: 'Show one call with its transcript', arguments: [callArgument()], action: () => import('./get.js'),
      examples: [{ command: 'voicectl call get CALL_ID' }, { command: 'voicectl call get CALL_ID --json | jq .transcript' }] }),
    verb({ name: 'recording', summary: 'Print a fresh link to the call\'s recording, or download it', arguments: [callArgument()], options: recordingOptions, action: () => import('./recording.js'),
      examples: [{ command: 'voicectl call recording CALL_ID' }, { command: 'voicectl call recording CALL_ID --download call.mp3' }] }),
    verb({ name: 'tail', summary: 'Print every call as it finishes, across campaigns, until Ctrl-C', action: () => import('./tail.js'),
      options: (cmd: Command, ctx: Context) => tailOptions(cmd, timeIn(ctx)),
      help: [`Each line fits the terminal, times in the --tz zone (named); with --json, one call per
line as GET /calls lists it (JSON lines); notices go to stderr. --since as for call list,
read in the --tz zone. Each poll reads only calls started since the oldest one still in progress;
calls unfinished two hours after they started are no longer followed. See docs/tail.md.`],
      examples: [{ command: 'voicectl call tail' }, { command: 'voicectl call tail --campaign CAMPAIGN_ID --status completed' }, { command: 'voicectl call tail --json --since 30m | jq -r \'.phone_number + " " + .outcome\'' }] }),
    verb({ name: 'export', summary: 'Stream every matching call to CSV, JSONL or an Excel workbook', action: () => import('./export.js'),
      options: (cmd: Command, ctx: Context) => exportOptions(cmd, timeIn(ctx)),
      help: [TIMES_HELP, `An .xlsx workbook is for people: phone numbers and ids stay text, times are dates. CSV
(RFC 4180) and JSONL are for programs. --format parquet --out DIR writes a folder for
warehouses and \`voicectl sql\`: DIR/date=YYYY-MM-DD/*.parquet by UTC start day, finished
calls only, each call once however often it runs (the folder's files say which calls it
holds). Columns and incremental exports: see docs/export.md.`],
      examples: [{ command: 'voicectl call export --campaign CAMPAIGN_ID --out calls.csv' }, { command: 'voicectl call export --since 7d --format xlsx --out week.xlsx' }, { command: 'voicectl call export --campaign CAMPAIGN_ID --format jsonl --transcripts > calls.jsonl' }, { command: 'voicectl call export --format parquet --out warehouse/ --since-last --state warehouse.state.json' }] }),
    verb({ name: 'check', summary: 'Check calls against rules: disclosure, phrases, opt-outs, language, hours, do-not-call, a judge', action: () => import('./check.js'),
      options: (cmd: Command, ctx: Context) => checkOptions(cmd, timeIn(ctx)),
      help: [`Calls come from --campaign, --since (--until), --call, or --from-file (a folder written by
calls pin, or JSON lines from call export --transcripts). Each call is read with its
transcript. The rules file is YAML with a rules: list; each rule has an id, a kind and a
severity (error or warn). Kinds: first_agent_turn_matches, never_says, opt_out_honoured,
max_duration, outcome_in, language, within_calling_hours, not_suppressed, judge. A bad
rules file is refused before any request, with its line (exit 2). Exits 1 when a rule of
severity error fails. See docs/quality.md.`],
      examples: [{ command: 'voicectl calls check --rules rules.yaml --campaign CAMPAIGN_ID' }, { command: 'voicectl calls check --rules rules.yaml --since 24h --sample 50 --seed 1 --junit checks.xml' }, { command: 'voicectl calls check --rules rules.yaml --campaign CAMPAIGN_ID --format md >> summary.md' }, { command: 'voicectl calls check --rules rules.yaml --campaign CAMPAIGN_ID --harvest-dnc do-not-call.txt' }] }),
    verb({ name: 'pin', summary: 'Write calls, transcripts included, as fixtures that calls check --from-file reads', action: () => import('./pin.js'),
      arguments: [new Argument('<call_id...>', 'the calls to pin')], options: pinOptions,
      help: [`Each call becomes DIR/CALL_ID.json, with its agent's language beside it. --redact
replaces the contact's name, the number and every extra value by placeholders that stay
the same from one pin to the next on this machine. A failing call becomes a test case
kept in git.`],
      examples: [{ command: 'voicectl calls pin CALL_ID --to test/calls' }, { command: 'voicectl calls pin CALL_ID --to test/calls --redact' }, { command: 'voicectl calls check --rules rules.yaml --from-file test/calls' }] }),
  ],
};

/** @internal */
export function listOptions(cmd: Command, time: TimeParser) {
  return filterOptions(cmd, time)
    .option('--status <status>', 'only calls with this status, for example completed')
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200 (default 50)', pageLimit)
    .option('--offset <n>', 'skip this many calls', nonNegativeInt);
}

/** @internal */
export function recordingOptions(cmd: Command) {
  return cmd
    .option('--download <file>', 'save the audio to FILE (- for stdout)');
}

/** @internal */
export function tailOptions(cmd: Command, time: TimeParser) {
  return cmd
    .option('--campaign <id>', 'only calls of this campaign')
    .option('--status <status>', 'only calls that finish with this status, for example completed')
    .option('--since <time>', 'also calls that started at or after this time and have already finished (default: only calls that finish from now on)', time)
    .option('--interval <seconds>', 'seconds between polls', positiveNumber, 2);
}

/** @internal */
export function exportOptions(cmd: Command, time: TimeParser) {
  return filterOptions(cmd, time)
    .option('--status <status>', 'only calls with this status')
    .addOption(new Option('--format <format>', 'csv, jsonl, xlsx or parquet (default: from --out\'s extension, else csv)').choices(['csv', 'jsonl', 'xlsx', 'parquet']))
    .option('--out <file>', 'write to FILE (complete or not at all) instead of stdout; with --format parquet, the folder DIR')
    .option('--transcripts', 'add each call\'s transcript (one more request per call)')
    .option('--recordings <dir>', 'also download each call\'s recording into DIR, skipping files already there')
    .option('--since-last', 'only calls newer than the last successful run (needs --state)')
    .option('--state <file>', 'where --since-last keeps its high-water mark')
    .option('--concurrency <n>', 'requests in flight at once (default 8, at most 32)', positiveInt);
}

/** @internal */
export function checkOptions(cmd: Command, time: TimeParser) {
  return cmd
    .requiredOption('--rules <file>', 'the rules file (YAML with a rules: list; see docs/quality.md)')
    .option('--campaign <id...>', 'check the calls of these campaigns')
    .option('--since <time>', 'check the calls that started at or after this time', time)
    .option('--until <time>', 'with --since: calls that started before this time', time)
    .option('--call <id...>', 'check these calls')
    .option('--from-file <path>', 'check calls read offline: a folder from calls pin, or JSON lines from call export --transcripts')
    .option('--junit <file>', 'also write a JUnit XML report: one test case per rule and call')
    .addOption(new Option('--format <format>', 'md: a Markdown summary for pull requests and job summaries').choices(['md']))
    .option('--sample <n>', 'check a reproducible sample of N calls', positiveInt)
    .option('--seed <s>', 'with --sample: which sample (default 0)')
    .option('--harvest-dnc <file>', 'add the numbers of calls with an opt-out request to this do-not-call file')
    .option('--concurrency <n>', 'calls read at once (default 8, at most 32)', positiveInt);
}

/** @internal */
export function pinOptions(cmd: Command) {
  return cmd
    .requiredOption('--to <dir>', 'the folder to write the fixtures into (made if missing)')
    .option('--redact', 'replace names, phone numbers and extra values by stable placeholders');
}
