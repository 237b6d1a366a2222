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
way) does not verify; 413 body over 1 MB. Ctrl-C stops it and prints how many events arrived.`)
    .addHelpText('after', `\nExamples:\n  voicectl listen --endpoint ENDPOINT_ID --log events.jsonl\n  voicectl listen --secret-stdin --forward-to http://localhost:3000/hooks < secret.txt\n  voicectl listen --replay events.jsonl --unforwarded --forward-to http://localhost:3000/hooks`)
    .action(lazy(ctx, () => import('./listen.js')));
}
