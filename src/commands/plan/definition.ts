/**
 * The options of the plan verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { accountFileOptions, type FlagsOf } from '../shared.js';

/** @internal */
export function planOptions<A extends unknown[]>(cmd: Command<A>) {
  return accountFileOptions(cmd
    .option('--prune', 'also show what would be deleted: resources the lock says these files managed and no longer declare')
    .option('--check', 'exit 6 when the account differs from the files (a drift check for CI)'));
}

/** @internal */
export type PlanFlags = FlagsOf<typeof planOptions>;
