/**
 * The options of the sandbox verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { nonNegativeInt, positiveNumber, type FlagsOf } from '../shared.js';

/** @internal */
export function sandboxOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--port <n>', 'port to listen on (0 = any free port)', nonNegativeInt, 4010)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--time-scale <n>', 'run simulated time N times faster than real time', positiveNumber, 1)
    .option('--seed <n>', 'make ids, outcomes and transcripts reproducible', nonNegativeInt)
    .option('--keys <file>', 'JSON array of keys: [{"key", "org", "scopes": [...], "daily_dispatch_cap"?}]')
    .option('--plan <file>', 'JSON plan: {"agent_limit", "active_agent_limit", "languages": [...]}')
    .option('--state <file>', 'keep the sandbox\'s data in this file across restarts')
    .option('--allow-local-webhooks', 'accept webhook URLs on loopback and private networks (for `voicectl listen`)')
    .option('--latency <ms>', 'delay every response by this many milliseconds', nonNegativeInt, 0);
}

/** @internal */
export type SandboxFlags = FlagsOf<typeof sandboxOptions>;
