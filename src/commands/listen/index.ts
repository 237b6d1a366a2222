import { Command, InvalidArgumentError } from 'commander';
import type { Context } from '../../context.js';
import { commaList, lazy, group } from '../shared.js';

export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free one).');
  return n;
}

export function listenCommand(ctx: Context): Command {
  return group('listen')
    .description('Receive webhook events locally: verify signatures, log, forward to your app')
    .option('--port <n>', 'port to listen on (0 picks a free one)', port, 4242)
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--secret <secret>', 'the endpoint\'s signing secret; visible in process lists: prefer VOICECTL_WEBHOOK_SECRET, --secret-file or --secret-stdin')
    .option('--secret-file <file>', 'read the signing secret from FILE')
    .option('--secret-stdin', 'read the signing secret from standard input')
    .option('--endpoint <id>', 'verify with the secret saved for this endpoint by `webhook create --save-secret`')
    .option('--skip-verify', 'accept unsigned or wrongly signed events (never for anything real)')
    .option('--forward-to <url>', 'relay each event (raw body and signature headers) to your app, e.g. http://localhost:3000/webhooks')
    .option('--log <file>', 'append every accepted event to FILE as NDJSON, on disk before it is acknowledged')
    .option('--events <types>', 'only show and forward these event types (comma-separated)', commaList)
    .option('--replay <file>', 're-send the events of a --log file to --forward-to, freshly signed, then exit')
    .option('--unforwarded', 'with --replay: only the events the app never acknowledged (from <log>.forwards)')
    .addHelpText('after', `
Without --secret or --endpoint, the secret comes from VOICECTL_WEBHOOK_SECRET, then from the
profile's webhook_secret (saved by \`voicectl webhook create --save-secret\`).
Answers: 200 accepted (or a duplicate Service-Event-Id, not processed again); 400 missing or
malformed signature header, or not a JSON event; 401 signature or timestamp (5 minutes either
way) does not verify; 413 body over 1 MB. Ctrl-C stops it and prints how many events arrived.`)
    .addHelpText('after', `\nExamples:\n  voicectl listen --endpoint ENDPOINT_ID --log events.jsonl\n  voicectl listen --secret-stdin --forward-to http://localhost:3000/hooks < secret.txt\n  voicectl listen --replay events.jsonl --unforwarded --forward-to http://localhost:3000/hooks`)
    .action(lazy(ctx, () => import('./listen.js')));
}
