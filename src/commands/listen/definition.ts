/**
 * The options of the listen verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import { commaList, positiveNumber, type FlagsOf } from '../shared.js';

/** @internal */
export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free one).');
  return n;
}

/** @internal */
export function listenOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
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
    .option('--from-api', 'no public URL, no tunnel: poll the API for finished calls and completed campaigns and build their events')
    .option('--since <time>', 'with --from-api, on a first run: from calls that started at this time (default: now); later runs go on from the saved cursor')
    .option('--interval <seconds>', 'with --from-api: seconds between polls', positiveNumber, 5);
}

/** @internal */
export type ListenFlags = FlagsOf<typeof listenOptions>;
