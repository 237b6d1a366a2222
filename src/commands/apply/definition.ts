/**
 * `apply`, declared once (src/commands/spec.ts): its flags type is derived from its
 * options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, type Command } from '@commander-js/extra-typings';
import { accountFileOptions, type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type ApplyFlags = FlagsOf<typeof applyOptions>;

/** @internal */
export const apply = verb({
  name: 'apply', summary: 'Make the account match the files (asks first; --yes)', options: applyOptions, action: () => import('./apply.js'),
  description: 'Make the account match the files: shows the plan, asks, then creates, updates and uploads',
  arguments: [new Argument('[dir]', 'folder with voicectl.yaml').default('.')],
  help: [`Asks before changing anything; --yes goes ahead (needed under --no-input or CI).
Creates are POSTs, changes are PATCHes with only the changed fields, documents are uploaded
when their content changed; nothing is deleted without --prune. The lock file is written
after every step: if apply stops (an error, Ctrl-C, a killed job), run it again to finish.
A create whose answer never came is not sent again unless the account shows it was made,
you say yes at a terminal, or --resend-pending. One apply at a time per lock file: a
second one exits 1 ("another apply is running") and sends nothing.`],
  examples: [{ command: 'voicectl apply account/' }, { command: 'voicectl apply account/ --yes --prune' }, { command: 'voicectl apply account/ --yes --secrets-out ~/.config/voicectl/webhook-secrets.json' }],
});

/** @internal */
export function applyOptions(cmd: Command) {
  return accountFileOptions(cmd
    .option('--prune', 'also delete what the lock says these files managed and they no longer declare'))
    .option('--secrets-out <file>', 'write the signing secrets of new webhook endpoints to this file (mode 600), outside DIR')
    .option('--resend-pending', 'send again the creates an earlier apply sent without hearing the answer, when the account does not show them');
}
