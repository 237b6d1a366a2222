import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';
import { pullOptions } from './definition.js';

export function pullCommand(ctx: Context): CommandUnknownOpts {
  return pullOptions(group('pull')
    .description('Write the account\'s agents, documents and webhook endpoints as files (voicectl.yaml)')
    .argument('[dir]', 'folder to write to', '.'))
    .addHelpText('after', `
Writes DIR/voicectl.yaml, long prompts to DIR/prompts/, DIR/voicectl.schema.json for editors,
and DIR/voicectl.lock.json, which maps each agent, document and endpoint to its id (commit it).
Documents are written as references by folder and name: the service offers no download.
Asks before replacing an existing voicectl.yaml (--yes replaces it).

Examples:
  voicectl sandbox &                       # then paste the export line it prints
  voicectl pull account/                   # the account as files
  voicectl plan account/                   # "No changes": the files match the account`)
    .action(lazy(ctx, () => import('./pull.js')));
}
