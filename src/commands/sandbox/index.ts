import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';
import { sandboxOptions } from './definition.js';

export function sandboxCommand(ctx: Context): CommandUnknownOpts {
  return sandboxOptions(group('sandbox')
    .description('Run a local emulator of the whole service (simulated calls, no balance used) until Ctrl-C'))
    .addHelpText('after', `\nExamples:\n  voicectl sandbox\n  voicectl sandbox --port 4010 --time-scale 60 --seed 7\n  voicectl sandbox --state sandbox.json --allow-local-webhooks`)
    .action(lazy(ctx, () => import('./start.js')));
}
