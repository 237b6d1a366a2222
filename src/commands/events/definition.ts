/**
 * The options of the events verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out.
 */
import { Option, type Command } from '@commander-js/extra-typings';
import { TIME_HELP, type TypedTime } from '../../util/time.js';
import type { FlagsOf } from '../shared.js';

type TimeParser = (value: string) => TypedTime;

/** @internal */
export function reconcileOptions<A extends unknown[]>(cmd: Command<A>, time: TimeParser) {
  return cmd
    .requiredOption('--log <file...>', 'the NDJSON log `listen --log` writes (several may be given)')
    .option('--since <time>', `events of calls that started at or after this time (${TIME_HELP}; read in your zone, --tz)`, time)
    .option('--until <time>', 'with --since: calls that started before this time', time)
    .option('--campaign <id...>', 'events of these campaigns and their calls')
    .option('--endpoint <id>', 'read this endpoint\'s delivery records and say why each event is missing')
    .option('--backfill <url>', 'send each missing event to your app, signed, then record it in the (first) log')
    .option('--secret-file <file>', 'with --backfill: sign with the secret in FILE')
    .option('--secret-stdin', 'with --backfill: sign with the secret read from standard input')
    .option('--into-log', 'append the missing events to the (first) log instead, for `listen --replay`')
    .addOption(new Option('--format <format>', 'md (for CI job summaries) or json; default: a table').choices(['md', 'json']));
}

/** @internal */
export type ReconcileFlags = FlagsOf<typeof reconcileOptions>;
