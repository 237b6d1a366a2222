import { Command } from 'commander';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';

export function voiceCommand(ctx: Context): Command {
  const voice = group('voice');
  voice
    .command('list')
    .alias('ls')
    .description('List voices, optionally for one language')
    .option('--language <tag>', 'only voices for this locale tag, for example hi-IN')
    .addHelpText('after', `\nExamples:\n  voicectl voice list\n  voicectl voice list --language hi-IN --json`)
    .action(lazy(ctx, () => import('./list.js')));
  return voice;
}
