import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';
import { triggerOptions } from './definition.js';

export function triggerCommand(ctx: Context): CommandUnknownOpts {
  return triggerOptions(group('trigger')
    .description('Send a realistic, correctly signed sample event to any URL (to test your receiver)')
    // Spelled out rather than imported from signature.ts: start-up loads this file, not node:crypto.
    .addArgument(new Argument('<event-type>', 'the event to send').choices(['call.ended', 'call.recording_ready', 'campaign.completed', 'ping'])))
    .addHelpText('after', `\nExamples:\n  voicectl trigger call.ended --to http://localhost:3000/hooks --secret-file secret.txt\n  voicectl trigger campaign.completed --to http://localhost:3000/hooks --secret-stdin --json < secret.txt`)
    .action(lazy(ctx, () => import('./trigger.js')));
}
