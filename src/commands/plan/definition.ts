/**
 * `plan`, declared once (src/commands/spec.ts): its flags type is derived from its
 * options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, type Command } from '@commander-js/extra-typings';
import { accountFileOptions, type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type PlanFlags = FlagsOf<typeof planOptions>;

/** @internal */
export const plan = verb({
  name: 'plan', summary: 'Show what apply would change in the account; --check exits 6 on drift', options: planOptions, action: () => import('./plan.js'),
  description: 'Show what apply would change in the account, field by field',
  arguments: [new Argument('[dir]', 'folder with voicectl.yaml').default('.')],
  help: [`Only list requests are made; nothing changes. --json prints the steps as JSON.
Exit codes: 0 (with --check: no changes), 6 changes pending or managed resources removed
from the files (with --check), 2 invalid files.`],
  examples: [{ command: 'voicectl plan account/' }, { command: 'voicectl plan account/ --check', comment: 'in CI: exit 6 when someone edited the account directly' }, { command: 'voicectl plan account/ --prune --json' }],
});

/** @internal */
export function planOptions(cmd: Command) {
  return accountFileOptions(cmd
    .option('--prune', 'also show what would be deleted: resources the lock says these files managed and no longer declare')
    .option('--check', 'exit 6 when the account differs from the files (a drift check for CI)'));
}
