/**
 * The options of the apply verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';


/** @internal */
export function applyOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--prune', 'also delete what the lock says these files managed and they no longer declare')
    .option('--adopt', 'take over resources of the same name that these files do not manage yet')
    .option('--lock <file>', 'lock file (default DIR/voicectl.lock.json)')
    .option('--secrets-out <file>', 'write the signing secrets of new webhook endpoints to this file (mode 600), outside DIR');
}

/** @internal */
export type ApplyFlags = FlagsOf<ReturnType<typeof applyOptions>>;
