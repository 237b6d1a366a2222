/**
 * `listen`, declared once (src/commands/spec.ts): its flags type is derived from its
 * options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { commaList, positiveNumber, serveOptions, type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type ListenFlags = FlagsOf<typeof listenOptions>;

/** @internal */
export const listen = verb({
  name: 'listen', summary: 'Receive webhook events locally: verify, log, forward to your app', options: listenOptions, action: () => import('./listen.js'),
  description: 'Receive webhook events locally: verify signatures, log, forward to your app',
  help: [`Without --secret or --endpoint, the secret comes from VOICECTL_WEBHOOK_SECRET, then from the
profile's webhook_secret (saved by \`voicectl webhook create --save-secret\`).
Answers: 200 accepted (or a duplicate Service-Event-Id, not processed again); 400 missing or
malformed signature header, or not a JSON event; 401 signature or timestamp (5 minutes either
way) does not verify; 413 body over 1 MB. Ctrl-C stops it and prints how many events arrived.
With --from-api, nothing listens: voicectl polls the API every --interval seconds and builds
each call.ended, call.recording_ready and campaign.completed event from what it returns (its
state when read), with ids evt_reconciled_… so each is logged once. The cursor is kept in
<log>.cursor (or the config folder without --log), so a restart goes on where it stopped.`],
  examples: [{ command: 'voicectl listen --endpoint ENDPOINT_ID --log events.jsonl' }, { command: 'voicectl listen --from-api --log events.jsonl --forward-to http://localhost:3000/hooks --secret-file secret.txt' }, { command: 'voicectl listen --secret-stdin --forward-to http://localhost:3000/hooks < secret.txt' }, { command: 'voicectl listen --replay events.jsonl --unforwarded --forward-to http://localhost:3000/hooks' }],
});

/** @internal */
export function listenOptions(cmd: Command) {
  return serveOptions(cmd, 4242)
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
    .option('--from-api', 'no public URL, no tunnel: poll the API for finished calls and completed campaigns and build their events')
    .option('--since <time>', 'with --from-api, on a first run: from calls that started at this time (default: now); later runs go on from the saved cursor')
    .option('--interval <seconds>', 'with --from-api: seconds between polls', positiveNumber, 5);
}
