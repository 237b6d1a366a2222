import { Command } from 'commander';
import type { Context } from '../../context.js';
import { lazy, nonNegativeInt, positiveNumber, group } from '../shared.js';

export function sandboxCommand(ctx: Context): Command {
  return group('sandbox')
    .description('Run a local emulator of the whole service (simulated calls, no balance used) until Ctrl-C')
    .option('--port <n>', 'port to listen on (0 = any free port)', nonNegativeInt, 4010)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--time-scale <n>', 'run simulated time N times faster than real time', positiveNumber, 1)
    .option('--seed <n>', 'make ids, outcomes and transcripts reproducible', nonNegativeInt)
    .option('--keys <file>', 'JSON array of keys: [{"key", "org", "scopes": [...], "daily_dispatch_cap"?}]')
    .option('--plan <file>', 'JSON plan: {"agent_limit", "active_agent_limit", "languages": [...]}')
    .option('--state <file>', 'keep the sandbox\'s data in this file across restarts')
    .option('--allow-local-webhooks', 'accept webhook URLs on loopback and private networks (for `voicectl listen`)')
    .option('--latency <ms>', 'delay every response by this many milliseconds', nonNegativeInt, 0)
    .addHelpText('after', `\nExamples:\n  voicectl sandbox\n  voicectl sandbox --port 4010 --time-scale 60 --seed 7\n  voicectl sandbox --state sandbox.json --allow-local-webhooks`)
    .action(lazy(ctx, () => import('./start.js')));
}
