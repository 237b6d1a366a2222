import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';
import { planOptions } from './definition.js';

export function planCommand(ctx: Context): CommandUnknownOpts {
  return planOptions(group('plan')
    .description('Show what apply would change in the account, field by field')
    .argument('[dir]', 'folder with voicectl.yaml', '.'))
    .addHelpText('after', `
Only list requests are made; nothing changes. --json prints the steps as JSON.
Exit codes: 0 (with --check: no changes), 6 changes pending or managed resources removed
from the files (with --check), 2 invalid files.

Examples:
  voicectl plan account/
  voicectl plan account/ --check            # in CI: exit 6 when someone edited the account directly
  voicectl plan account/ --prune --json`)
    .action(lazy(ctx, () => import('./plan.js')));
}
