/**
 * `sandbox`, declared once (src/commands/spec.ts): its flags type is derived from its
 * options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { nonNegativeInt, positiveNumber, serveOptions, type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';
import { InvalidArgumentError } from '@commander-js/extra-typings';

/** --start: a moment with its offset, so the world starts at the same instant wherever it is run. */
function startTime(value: string): string {
  if (!/(Z|[+-]\d\d:?\d\d)$/i.test(value.trim()) || !Number.isFinite(Date.parse(value))) {
    throw new InvalidArgumentError('expected an ISO 8601 time with its offset, such as 2026-12-01T08:00+05:30 or 2026-12-01T02:30Z.');
  }
  return new Date(Date.parse(value)).toISOString();
}

/** @internal */
export type SandboxFlags = FlagsOf<typeof sandboxOptions>;

/** @internal */
export const sandbox = verb({
  name: 'sandbox', summary: 'Run a local emulator of the whole service (no real calls)', options: sandboxOptions, action: () => import('./start.js'),
  description: 'Run a local emulator of the whole service (simulated calls, no balance used) until Ctrl-C',
  examples: [{ command: 'voicectl sandbox' }, { command: 'voicectl sandbox --port 4010 --time-scale 60 --seed 7' }, { command: 'voicectl sandbox --state sandbox.json --allow-local-webhooks' }, { command: 'voicectl sandbox --time-scale 3600 --start 2026-12-01T08:00+05:30', comment: 'an hour a second, from 8 am in India' }, { command: 'voicectl sandbox --degrade after=300,connect=0.2,country=US', comment: 'US answers collapse after the 300th call' }],
});

/** @internal */
export function sandboxOptions(cmd: Command) {
  return serveOptions(cmd, 4010)
    .option('--time-scale <n>', 'run simulated time N times faster than real time', positiveNumber, 1)
    .option('--start <time>', 'start simulated time at this moment (ISO 8601 with an offset, e.g. 2026-12-01T08:00+05:30)', startTime)
    .option('--seed <n>', 'make ids, outcomes and transcripts reproducible', nonNegativeInt)
    .option('--keys <file>', 'JSON array of keys: [{"key", "org", "scopes": [...], "daily_dispatch_cap"?}]')
    .option('--plan <file>', 'JSON plan: {"agent_limit", "active_agent_limit", "languages": [...]}')
    .option('--state <file>', 'keep the sandbox\'s data in this file across restarts')
    .option('--allow-local-webhooks', 'accept webhook URLs on loopback and private networks (for `voicectl listen`)')
    .option('--latency <ms>', 'delay every response by this many milliseconds', nonNegativeInt, 0)
    .option('--learn <file>', 'answer with your account\'s own connect rates, outcomes and call lengths, learned from an export (call export --format jsonl) or a rates file')
    .option('--learned-out <file>', 'write what --learn kept (distributions only: no number, name or id) to this rates file')
    .option('--degrade <rule>', 'misbehave on cue, to test a run\'s guardrails: after=N,connect=SHARE|failed=SHARE[,country=CC] (repeatable)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
}
