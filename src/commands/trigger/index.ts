import { Argument, Command } from 'commander';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';

export function triggerCommand(ctx: Context): Command {
  return group('trigger')
    .description('Send a realistic, correctly signed sample event to any URL (to test your receiver)')
    // Spelled out rather than imported from signature.ts: start-up loads this file, not node:crypto.
    .addArgument(new Argument('<event-type>', 'the event to send').choices(['call.ended', 'call.recording_ready', 'campaign.completed', 'ping']))
    .requiredOption('--to <url>', 'the receiver\'s URL, e.g. http://localhost:3000/webhooks')
    .option('--secret <secret>', 'the signing secret your receiver verifies with; visible in process lists: prefer VOICECTL_WEBHOOK_SECRET, --secret-file or --secret-stdin')
    .option('--secret-file <file>', 'read the signing secret from FILE')
    .option('--secret-stdin', 'read the signing secret from standard input')
    .option('--data <file>', 'JSON file whose object replaces the sample\'s `data` ("-" reads stdin)')
    .addHelpText('after', `\nExamples:\n  voicectl trigger call.ended --to http://localhost:3000/hooks --secret-file secret.txt\n  voicectl trigger campaign.completed --to http://localhost:3000/hooks --secret-stdin --json < secret.txt`)
    .action(lazy(ctx, () => import('./trigger.js')));
}
