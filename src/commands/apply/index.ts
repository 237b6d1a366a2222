import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';
import { applyOptions } from './definition.js';

export function applyCommand(ctx: Context): CommandUnknownOpts {
  return applyOptions(group('apply')
    .description('Make the account match the files: shows the plan, asks, then creates, updates and uploads')
    .argument('[dir]', 'folder with voicectl.yaml', '.'))
    .addHelpText('after', `
Asks before changing anything; --yes goes ahead (needed under --no-input or CI).
Creates are POSTs, changes are PATCHes with only the changed fields, documents are uploaded
when their content changed; nothing is deleted without --prune. The lock file is written
after every step: if apply stops (an error, Ctrl-C, a killed job), run it again to finish.
A create whose answer never came is not sent again unless the account shows it was made,
you say yes at a terminal, or --resend-pending. One apply at a time per lock file: a
second one exits 1 ("another apply is running") and sends nothing.

Examples:
  voicectl apply account/
  voicectl apply account/ --yes --prune
  voicectl apply account/ --yes --secrets-out ~/.config/voicectl/webhook-secrets.json`)
    .action(lazy(ctx, () => import('./apply.js')));
}
