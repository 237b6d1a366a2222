/**
 * The options of the apply verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { accountFileOptions, type FlagsOf } from '../shared.js';

/** @internal */
export function applyOptions<A extends unknown[]>(cmd: Command<A>) {
  return accountFileOptions(cmd
    .option('--prune', 'also delete what the lock says these files managed and they no longer declare'))
    .option('--secrets-out <file>', 'write the signing secrets of new webhook endpoints to this file (mode 600), outside DIR')
    .option('--resend-pending', 'send again the creates an earlier apply sent without hearing the answer, when the account does not show them');
}

/** @internal */
export type ApplyFlags = FlagsOf<typeof applyOptions>;
