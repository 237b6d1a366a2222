/**
 * The events verbs, each declared once (src/commands/spec.ts): each verb's flags type is
 * derived from its options, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out.
 */
import { Option, type Command } from '@commander-js/extra-typings';
import { TIME_HELP, timeOption, type TypedTime } from '../../util/time.js';
import type { FlagsOf } from '../shared.js';
import type { Context } from '../../context.js';
import { verb, type Group } from '../spec.js';
import { tableHelp } from '../shared.js';

/** @internal */
export type ReconcileFlags = FlagsOf<typeof reconcileOptions>;

type TimeParser = (value: string) => TypedTime;

/** @internal */
export const events: Group = {
  name: 'events', alias: 'event', summary: 'Find the webhook events your app never got, and send them again',
  verbs: [
    verb({ name: 'reconcile', summary: 'List the webhook events the service should have sent that your logs do not hold; exit 1 when any are missing', action: () => import('./reconcile.js'),
      options: (cmd: Command, ctx: Context) => reconcileOptions(cmd, timeOption(() => ctx.now())),
      help: [`Expected: call.ended for each finished call, call.recording_ready for each call with a
recording, campaign.completed for each completed campaign. A rebuilt event's data is the
object as the API returns it now (not when the event happened); its id is
evt_reconciled_ plus a hash of type and object id, so receivers that dedupe take it once.
With --backfill the secret comes from --secret-file, --secret-stdin, VOICECTL_WEBHOOK_SECRET
or the profile's saved webhook_secret. Exit 0: nothing missing (or all of it backfilled);
1: events are missing (or some could not be backfilled).`, tableHelp(['EVENT', 'OBJECT', 'WHY', 'VERDICT'], 'WHY and VERDICT are there with --endpoint.')],
      examples: [{ command: 'voicectl events reconcile --log events.jsonl --campaign CAMPAIGN_ID --into-log' }, { command: 'voicectl events reconcile --log events.jsonl --campaign CAMPAIGN_ID --backfill http://localhost:3000/hooks --secret-file secret.txt' }] }),
  ],
};

/** @internal */
export function reconcileOptions(cmd: Command, time: TimeParser) {
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
