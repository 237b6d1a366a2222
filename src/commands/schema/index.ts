import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';

export function schemaCommand(ctx: Context): CommandUnknownOpts {
  return group('schema')
    .description('Print the JSON Schema of voicectl.yaml, for editors')
    .option('--run-policy', 'print the JSON Schema of a `campaign run --policy` file instead')
    .addHelpText('after', `
Put this line at the top of voicectl.yaml for completion and checks in editors that use
the YAML language server (VS Code's YAML extension, Neovim, JetBrains):
  # yaml-language-server: $schema=./voicectl.schema.json

Examples:
  voicectl schema > account/voicectl.schema.json`)
    .action(lazy(ctx, () => import('./schema.js')));
}
