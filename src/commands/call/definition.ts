/**
 * The options of the call verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Option, type Command } from '@commander-js/extra-typings';
import { nonNegativeInt, pageLimit, positiveInt, positiveNumber, type FlagsOf } from '../shared.js';
import type { TypedTime } from '../../util/time.js';

type TimeParser = (value: string) => TypedTime;

/** The campaign and start-time filters that list and export share. @internal */
function filterOptions<A extends unknown[]>(cmd: Command<A>, time: TimeParser) {
  return cmd
    .option('--campaign <id>', 'only calls of this campaign')
    .option('--since <time>', 'calls that started at or after this time', time)
    .option('--until <time>', 'calls that started before this time', time);
}

/** @internal */
export function listOptions<A extends unknown[]>(cmd: Command<A>, time: TimeParser) {
  return filterOptions(cmd, time)
    .option('--status <status>', 'only calls with this status, for example completed')
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200 (default 50)', pageLimit)
    .option('--offset <n>', 'skip this many calls', nonNegativeInt);
}

/** @internal */
export function recordingOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--download <file>', 'save the audio to FILE (- for stdout)');
}

/** @internal */
export function tailOptions<A extends unknown[]>(cmd: Command<A>, time: TimeParser) {
  return cmd
    .option('--campaign <id>', 'only calls of this campaign')
    .option('--status <status>', 'only calls that finish with this status, for example completed')
    .option('--since <time>', 'also calls that started at or after this time and have already finished (default: only calls that finish from now on)', time)
    .option('--interval <seconds>', 'seconds between polls', positiveNumber, 2);
}

/** @internal */
export function exportOptions<A extends unknown[]>(cmd: Command<A>, time: TimeParser) {
  return filterOptions(cmd, time)
    .option('--status <status>', 'only calls with this status')
    .addOption(new Option('--format <format>', 'csv, jsonl or xlsx (default: from --out\'s extension, else csv)').choices(['csv', 'jsonl', 'xlsx']))
    .option('--out <file>', 'write to FILE (complete or not at all) instead of stdout')
    .option('--transcripts', 'add each call\'s transcript (one more request per call)')
    .option('--recordings <dir>', 'also download each call\'s recording into DIR, skipping files already there')
    .option('--since-last', 'only calls newer than the last successful run (needs --state)')
    .option('--state <file>', 'where --since-last keeps its high-water mark')
    .option('--concurrency <n>', 'requests in flight at once (default 8, at most 32)', positiveInt);
}

/** @internal */
export type ListFlags = FlagsOf<typeof listOptions>;
/** @internal */
export type RecordingFlags = FlagsOf<typeof recordingOptions>;
/** @internal */
export type TailFlags = FlagsOf<typeof tailOptions>;
/** @internal */
export type ExportFlags = FlagsOf<typeof exportOptions>;

/** @internal */
export function checkOptions<A extends unknown[]>(cmd: Command<A>, time: TimeParser) {
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
export function pinOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .requiredOption('--to <dir>', 'the folder to write the fixtures into (made if missing)')
    .option('--redact', 'replace names, phone numbers and extra values by stable placeholders');
}

/** @internal */
export type CheckFlags = FlagsOf<typeof checkOptions>;
/** @internal */
export type PinFlags = FlagsOf<typeof pinOptions>;
