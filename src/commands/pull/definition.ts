/**
 * The options of the pull verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** @internal */
export function pullOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--lock <file>', 'lock file to write (default DIR/voicectl.lock.json)');
}

/** @internal */
export type PullFlags = FlagsOf<typeof pullOptions>;
