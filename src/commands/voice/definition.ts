/**
 * The voice verbs, each declared once (src/commands/spec.ts): each verb's flags type is
 * derived from its options, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf, tableHelp } from '../shared.js';
import { verb, type Group } from '../spec.js';

/** @internal */
export type ListFlags = FlagsOf<typeof listOptions>;

/** @internal */
export const voice: Group = {
  name: 'voice', alias: 'voices', summary: 'List the voices agents can speak with (no key needed)',
  verbs: [
    verb({ name: 'list', alias: 'ls', summary: 'List voices, optionally for one language', options: listOptions, action: () => import('./list.js'),
      help: [tableHelp(['VOICE', 'ID'])],
      examples: [{ command: 'voicectl voice list' }, { command: 'voicectl voice list --language hi-IN --json' }] }),
  ],
};

/** @internal */
export function listOptions(cmd: Command) {
  return cmd
    .option('--language <tag>', 'only voices for this locale tag, for example hi-IN');
}
