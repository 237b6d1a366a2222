/**
 * The options of the login verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** @internal */
export function loginOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--with-key-stdin', 'read the API key from stdin (for CI: the key never shows in a process list)');
}

/** @internal */
export type LoginFlags = FlagsOf<typeof loginOptions>;
