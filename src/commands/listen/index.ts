import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';
import { listenOptions } from './definition.js';

export function listenCommand(ctx: Context): CommandUnknownOpts {
  return listenOptions(group('listen')
    .description('Receive webhook events locally: verify signatures, log, forward to your app'))
    .addHelpText('after', `
Without --secret or --endpoint, the secret comes from VOICECTL_WEBHOOK_SECRET, then from the
profile's webhook_secret (saved by \`voicectl webhook create --save-secret\`).
Answers: 200 accepted (or a duplicate Service-Event-Id, not processed again); 400 missing or
malformed signature header, or not a JSON event; 401 signature or timestamp (5 minutes either
way) does not verify; 413 body over 1 MB. Ctrl-C stops it and prints how many events arrived.
With --from-api, nothing listens: voicectl polls the API every --interval seconds and builds
each call.ended, call.recording_ready and campaign.completed event from what it returns (its
state when read), with ids evt_reconciled_… so each is logged once. The cursor is kept in
<log>.cursor (or the config folder without --log), so a restart goes on where it stopped.`)
    .addHelpText('after', `\nExamples:\n  voicectl listen --endpoint ENDPOINT_ID --log events.jsonl\n  voicectl listen --from-api --log events.jsonl --forward-to http://localhost:3000/hooks --secret-file secret.txt\n  voicectl listen --secret-stdin --forward-to http://localhost:3000/hooks < secret.txt\n  voicectl listen --replay events.jsonl --unforwarded --forward-to http://localhost:3000/hooks`)
    .action(lazy(ctx, () => import('./listen.js')));
}
