/**
 * The webhook verbs, each declared once (src/commands/spec.ts): each verb's flags type is
 * derived from its options, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, type Command } from '@commander-js/extra-typings';
import { commaList, pageLimit, type FlagsOf, tableHelp } from '../shared.js';
import { verb, type Group } from '../spec.js';

/** @internal */
export type CreateFlags = FlagsOf<typeof createOptions>;
/** @internal */
export type UpdateFlags = FlagsOf<typeof updateOptions>;
/** @internal */
export type DeliveriesFlags = FlagsOf<typeof deliveriesOptions>;
/** @internal */
export type RotateSecretFlags = FlagsOf<typeof rotateSecretOptions>;

const EVENTS_HELP = 'comma-separated event types (call.ended, call.recording_ready, campaign.completed, ping); default: all';

const endpointArgument = () => new Argument('<id>', 'endpoint id');

/** @internal */
export const webhook: Group = {
  name: 'webhook', alias: 'webhooks', summary: 'Manage webhook endpoints that receive signed events',
  verbs: [
    verb({ name: 'list', alias: 'ls', summary: 'List webhook endpoints', action: () => import('./list.js'),
      help: [tableHelp(['ID', 'URL', 'EVENTS', 'ENABLED'])],
      examples: [{ command: 'voicectl webhook list' }, { command: 'voicectl webhook list --json' }] }),
    verb({ name: 'create', summary: 'Register an HTTPS endpoint; prints its signing secret once', options: createOptions, action: () => import('./create.js'),
      examples: [{ command: 'voicectl webhook create --url https://hooks.example.com/voice --events call.ended,campaign.completed --save-secret' }] }),
    verb({ name: 'update', summary: 'Change an endpoint; sends only what is given', arguments: [endpointArgument()], options: updateOptions, action: () => import('./update.js'),
      examples: [{ command: 'voicectl webhook update ENDPOINT_ID --disable' }, { command: 'voicectl webhook update ENDPOINT_ID --events call.ended --enable' }] }),
    verb({ name: 'test', summary: 'Ask the service to send a ping event to an endpoint', arguments: [endpointArgument()], action: () => import('./test.js'),
      examples: [{ command: 'voicectl webhook test ENDPOINT_ID' }] }),
    verb({ name: 'deliveries', summary: 'Show an endpoint\'s deliveries: status, attempts, last response code, next retry', action: () => import('./deliveries.js'),
      arguments: [endpointArgument()], options: deliveriesOptions,
      help: [tableHelp(['ID', 'STATUS', 'WHY IT FAILED'])],
      examples: [{ command: 'voicectl webhook deliveries ENDPOINT_ID' }, { command: 'voicectl webhook deliveries ENDPOINT_ID --all -o csv > deliveries.csv' }] }),
    verb({ name: 'rotate-secret', summary: 'Replace an endpoint\'s signing secret; prints the new one once', action: () => import('./rotate-secret.js'),
      arguments: [endpointArgument()], options: rotateSecretOptions,
      examples: [{ command: 'voicectl webhook rotate-secret ENDPOINT_ID --save-secret --yes' }] }),
    verb({ name: 'delete', alias: 'rm', summary: 'Delete an endpoint (its pending retries are dropped)', arguments: [endpointArgument()], action: () => import('./delete.js'),
      examples: [{ command: 'voicectl webhook delete ENDPOINT_ID --yes' }] }),
  ],
};

/** @internal */
export function createOptions(cmd: Command) {
  return cmd
    .requiredOption('--url <url>', 'public HTTPS URL that receives the events')
    .option('--events <types>', EVENTS_HELP, commaList)
    .option('--allow-local', 'skip the HTTPS/public-host check and let the server decide (a sandbox started with --allow-local-webhooks)')
    .option('--save-secret', 'save the secret in the profile as webhook_secret, for `voicectl listen`');
}

/** @internal */
export function updateOptions(cmd: Command) {
  return cmd
    .option('--enable', 'resume deliveries')
    .option('--disable', 'pause deliveries (events meanwhile are not queued)')
    .option('--url <url>', 'new public HTTPS URL')
    .option('--events <types>', EVENTS_HELP, commaList)
    .option('--allow-local', 'skip the HTTPS/public-host check for --url and let the server decide');
}

/** @internal */
export function deliveriesOptions(cmd: Command) {
  return cmd
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200', pageLimit);
}

/** @internal */
export function rotateSecretOptions(cmd: Command) {
  return cmd
    .option('--save-secret', 'save the new secret in the profile as webhook_secret');
}
