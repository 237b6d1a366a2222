import { Command } from 'commander';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';

export function planCommand(ctx: Context): Command {
  return group('plan')
    .description('Show what apply would change in the account, field by field')
    .argument('[dir]', 'folder with voicectl.yaml', '.')
    .option('--prune', 'also show what would be deleted: resources the lock says these files managed and no longer declare')
    .option('--check', 'exit 6 when the account differs from the files (a drift check for CI)')
    .option('--adopt', 'take over resources of the same name that these files do not manage yet')
    .option('--lock <file>', 'lock file (default DIR/voicectl.lock.json)')
    .addHelpText('after', `
Only list requests are made; nothing changes. --json prints the steps as JSON.
Exit codes: 0 (with --check: no changes), 6 changes pending (with --check), 2 invalid files.

Examples:
  voicectl plan account/
  voicectl plan account/ --check            # in CI: exit 6 when someone edited the account directly
  voicectl plan account/ --prune --json`)
    .action(lazy(ctx, () => import('./plan.js')));
}
