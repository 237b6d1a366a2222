import { Command } from 'commander';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';

export function applyCommand(ctx: Context): Command {
  return group('apply')
    .description('Make the account match the files: shows the plan, asks, then creates, updates and uploads')
    .argument('[dir]', 'folder with voicectl.yaml', '.')
    .option('--prune', 'also delete what the lock says these files managed and they no longer declare')
    .option('--adopt', 'take over resources of the same name that these files do not manage yet')
    .option('--lock <file>', 'lock file (default DIR/voicectl.lock.json)')
    .option('--secrets-out <file>', 'write the signing secrets of new webhook endpoints to this file (mode 600), outside DIR')
    .addHelpText('after', `
Asks before changing anything; --yes goes ahead (needed under --no-input or CI).
Creates are POSTs, changes are PATCHes with only the changed fields, documents are uploaded
when their content changed; nothing is deleted without --prune. The lock file is written
after every step: if apply stops (an error, Ctrl-C, a killed job), run it again to finish.

Examples:
  voicectl apply account/
  voicectl apply account/ --yes --prune
  voicectl apply account/ --yes --secrets-out ~/.config/voicectl/webhook-secrets.json`)
    .action(lazy(ctx, () => import('./apply.js')));
}
