import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { timeOption } from '../../util/time.js';
import { group, lazy } from '../shared.js';
import { reconcileOptions } from './definition.js';

export function eventsCommand(ctx: Context): CommandUnknownOpts {
  const events = group('events');
  const time = timeOption(() => ctx.now());

  reconcileOptions(events
    .command('reconcile')
    .description('List the webhook events the service should have sent that your logs do not hold; exit 1 when any are missing'), time)
    .addHelpText('after', `
Expected: call.ended for each finished call, call.recording_ready for each call with a
recording, campaign.completed for each completed campaign. A rebuilt event's data is the
object as the API returns it now (not when the event happened); its id is
evt_reconciled_ plus a hash of type and object id, so receivers that dedupe take it once.
With --backfill the secret comes from --secret-file, --secret-stdin, VOICECTL_WEBHOOK_SECRET
or the profile's saved webhook_secret. Exit 0: nothing missing (or all of it backfilled);
1: events are missing (or some could not be backfilled).`)
    .addHelpText('after', `\nExamples:\n  voicectl events reconcile --log events.jsonl --campaign CAMPAIGN_ID --into-log\n  voicectl events reconcile --log events.jsonl --campaign CAMPAIGN_ID --backfill http://localhost:3000/hooks --secret-file secret.txt`)
    .action(lazy(ctx, () => import('./reconcile.js')));

  return events;
}
