/**
 * The options of the voice verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** @internal */
export function listOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--language <tag>', 'only voices for this locale tag, for example hi-IN');
}

/** @internal */
export type ListFlags = FlagsOf<typeof listOptions>;
