/**
 * The options of the trigger verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** @internal */
export function triggerOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .requiredOption('--to <url>', 'the receiver\'s URL, e.g. http://localhost:3000/webhooks')
    .option('--secret <secret>', 'the signing secret your receiver verifies with (default: VOICECTL_WEBHOOK_SECRET, then the profile\'s saved secret); visible in process lists: prefer VOICECTL_WEBHOOK_SECRET, --secret-file or --secret-stdin')
    .option('--secret-file <file>', 'read the signing secret from FILE')
    .option('--secret-stdin', 'read the signing secret from standard input')
    .option('--data <file>', 'JSON file whose object replaces the sample\'s `data` ("-" reads stdin)');
}

/** @internal */
export type TriggerFlags = FlagsOf<typeof triggerOptions>;
