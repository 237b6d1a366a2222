/**
 * The options of the demo verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** @internal */
export function demoOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--out <file>', 'where to write the CSV export of the calls (default: a new temporary directory)');
}

/** @internal */
export type DemoFlags = FlagsOf<typeof demoOptions>;
