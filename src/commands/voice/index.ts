import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';
import { listOptions } from './definition.js';

export function voiceCommand(ctx: Context): CommandUnknownOpts {
  const voice = group('voice');
  listOptions(voice
    .command('list')
    .alias('ls')
    .description('List voices, optionally for one language'))
    .addHelpText('after', `\nExamples:\n  voicectl voice list\n  voicectl voice list --language hi-IN --json`)
    .action(lazy(ctx, () => import('./list.js')));
  return voice;
}
