/**
 * `trigger`, declared once (src/commands/spec.ts): its flags type is derived from its
 * options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type TriggerFlags = FlagsOf<typeof triggerOptions>;

/** @internal */
export const trigger = verb({
  name: 'trigger', summary: 'Send a signed sample event to any URL, to test a receiver', options: triggerOptions, action: () => import('./trigger.js'),
  description: 'Send a realistic, correctly signed sample event to any URL (to test your receiver)',
  // Spelled out rather than imported from signature.ts: start-up loads this file, not node:crypto.
  arguments: [new Argument('<event-type>', 'the event to send').choices(['call.ended', 'call.recording_ready', 'campaign.completed', 'ping'])],
  examples: [{ command: 'voicectl trigger call.ended --to http://localhost:3000/hooks --secret-file secret.txt' }, { command: 'voicectl trigger campaign.completed --to http://localhost:3000/hooks --secret-stdin --json < secret.txt' }],
});

/** @internal */
export function triggerOptions(cmd: Command) {
  return cmd
    .requiredOption('--to <url>', 'the receiver\'s URL, e.g. http://localhost:3000/webhooks')
    .option('--secret <secret>', 'the signing secret your receiver verifies with (default: VOICECTL_WEBHOOK_SECRET, then the profile\'s saved secret); visible in process lists: prefer VOICECTL_WEBHOOK_SECRET, --secret-file or --secret-stdin')
    .option('--secret-file <file>', 'read the signing secret from FILE')
    .option('--secret-stdin', 'read the signing secret from standard input')
    .option('--data <file>', 'JSON file whose object replaces the sample\'s `data` ("-" reads stdin)');
}
