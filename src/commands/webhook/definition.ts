/**
 * The options of the webhook verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { commaList, pageLimit, type FlagsOf } from '../shared.js';

const EVENTS_HELP = 'comma-separated event types (call.ended, call.recording_ready, campaign.completed, ping); default: all';

/** @internal */
export function createOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .requiredOption('--url <url>', 'public HTTPS URL that receives the events')
    .option('--events <types>', EVENTS_HELP, commaList)
    .option('--allow-local', 'skip the HTTPS/public-host check and let the server decide (a sandbox started with --allow-local-webhooks)')
    .option('--save-secret', 'save the secret in the profile as webhook_secret, for `voicectl listen`');
}

/** @internal */
export function updateOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--enable', 'resume deliveries')
    .option('--disable', 'pause deliveries (events meanwhile are not queued)')
    .option('--url <url>', 'new public HTTPS URL')
    .option('--events <types>', EVENTS_HELP, commaList)
    .option('--allow-local', 'skip the HTTPS/public-host check for --url and let the server decide');
}

/** @internal */
export function deliveriesOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200', pageLimit);
}

/** @internal */
export function rotateSecretOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--save-secret', 'save the new secret in the profile as webhook_secret');
}

/** @internal */
export type CreateFlags = FlagsOf<typeof createOptions>;
/** @internal */
export type UpdateFlags = FlagsOf<typeof updateOptions>;
/** @internal */
export type DeliveriesFlags = FlagsOf<typeof deliveriesOptions>;
/** @internal */
export type RotateSecretFlags = FlagsOf<typeof rotateSecretOptions>;
