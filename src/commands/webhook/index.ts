import { Command } from 'commander';
import type { Context } from '../../context.js';
import { commaList, group, lazy, pageLimit } from '../shared.js';

// Spelled out rather than imported from signature.ts: start-up loads this file, not node:crypto.
const EVENTS_HELP = 'comma-separated event types (call.ended, call.recording_ready, campaign.completed, ping); default: all';

export function webhookCommand(ctx: Context): Command {
  const webhook = group('webhook');

  webhook
    .command('list')
    .alias('ls')
    .description('List webhook endpoints')
    .addHelpText('after', `\nExamples:\n  voicectl webhook list\n  voicectl webhook list --json`)
    .action(lazy(ctx, () => import('./list.js')));

  webhook
    .command('create')
    .description('Register an HTTPS endpoint; prints its signing secret once')
    .requiredOption('--url <url>', 'public HTTPS URL that receives the events')
    .option('--events <types>', EVENTS_HELP, commaList)
    .option('--allow-local', 'skip the HTTPS/public-host check and let the server decide (a sandbox started with --allow-local-webhooks)')
    .option('--save-secret', 'save the secret in the profile as webhook_secret, for `voicectl listen`')
    .addHelpText('after', `\nExamples:\n  voicectl webhook create --url https://hooks.example.com/voice --events call.ended,campaign.completed --save-secret`)
    .action(lazy(ctx, () => import('./create.js')));

  webhook
    .command('update')
    .description('Change an endpoint; sends only what is given')
    .argument('<id>', 'endpoint id')
    .option('--enable', 'resume deliveries')
    .option('--disable', 'pause deliveries (events meanwhile are not queued)')
    .option('--url <url>', 'new public HTTPS URL')
    .option('--events <types>', EVENTS_HELP, commaList)
    .option('--allow-local', 'skip the HTTPS/public-host check for --url and let the server decide')
    .addHelpText('after', `\nExamples:\n  voicectl webhook update ENDPOINT_ID --disable\n  voicectl webhook update ENDPOINT_ID --events call.ended --enable`)
    .action(lazy(ctx, () => import('./update.js')));

  webhook
    .command('test')
    .description('Ask the service to send a ping event to an endpoint')
    .argument('<id>', 'endpoint id')
    .addHelpText('after', `\nExamples:\n  voicectl webhook test ENDPOINT_ID`)
    .action(lazy(ctx, () => import('./test.js')));

  webhook
    .command('deliveries')
    .description('Show an endpoint\'s deliveries: status, attempts, last response code, next retry')
    .argument('<id>', 'endpoint id')
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200', pageLimit)
    .addHelpText('after', `\nExamples:\n  voicectl webhook deliveries ENDPOINT_ID\n  voicectl webhook deliveries ENDPOINT_ID --all -o csv > deliveries.csv`)
    .action(lazy(ctx, () => import('./deliveries.js')));

  webhook
    .command('rotate-secret')
    .description('Replace an endpoint\'s signing secret; prints the new one once')
    .argument('<id>', 'endpoint id')
    .option('--save-secret', 'save the new secret in the profile as webhook_secret')
    .addHelpText('after', `\nExamples:\n  voicectl webhook rotate-secret ENDPOINT_ID --save-secret --yes`)
    .action(lazy(ctx, () => import('./rotate-secret.js')));

  webhook
    .command('delete')
    .alias('rm')
    .description('Delete an endpoint (its pending retries are dropped)')
    .argument('<id>', 'endpoint id')
    .addHelpText('after', `\nExamples:\n  voicectl webhook delete ENDPOINT_ID --yes`)
    .action(lazy(ctx, () => import('./delete.js')));

  return webhook;
}
