import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';
import { createOptions, deliveriesOptions, rotateSecretOptions, updateOptions } from './definition.js';

// Spelled out rather than imported from signature.ts: start-up loads this file, not node:crypto.

export function webhookCommand(ctx: Context): CommandUnknownOpts {
  const webhook = group('webhook');

  webhook
    .command('list')
    .alias('ls')
    .description('List webhook endpoints')
    .addHelpText('after', `\nExamples:\n  voicectl webhook list\n  voicectl webhook list --json`)
    .action(lazy(ctx, () => import('./list.js')));

  createOptions(webhook
    .command('create')
    .description('Register an HTTPS endpoint; prints its signing secret once'))
    .addHelpText('after', `\nExamples:\n  voicectl webhook create --url https://hooks.example.com/voice --events call.ended,campaign.completed --save-secret`)
    .action(lazy(ctx, () => import('./create.js')));

  updateOptions(webhook
    .command('update')
    .description('Change an endpoint; sends only what is given')
    .argument('<id>', 'endpoint id'))
    .addHelpText('after', `\nExamples:\n  voicectl webhook update ENDPOINT_ID --disable\n  voicectl webhook update ENDPOINT_ID --events call.ended --enable`)
    .action(lazy(ctx, () => import('./update.js')));

  webhook
    .command('test')
    .description('Ask the service to send a ping event to an endpoint')
    .argument('<id>', 'endpoint id')
    .addHelpText('after', `\nExamples:\n  voicectl webhook test ENDPOINT_ID`)
    .action(lazy(ctx, () => import('./test.js')));

  deliveriesOptions(webhook
    .command('deliveries')
    .description('Show an endpoint\'s deliveries: status, attempts, last response code, next retry')
    .argument('<id>', 'endpoint id'))
    .addHelpText('after', `\nExamples:\n  voicectl webhook deliveries ENDPOINT_ID\n  voicectl webhook deliveries ENDPOINT_ID --all -o csv > deliveries.csv`)
    .action(lazy(ctx, () => import('./deliveries.js')));

  rotateSecretOptions(webhook
    .command('rotate-secret')
    .description('Replace an endpoint\'s signing secret; prints the new one once')
    .argument('<id>', 'endpoint id'))
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
