/**
 * `voicectl schema`, declared once (src/commands/spec.ts): its flags type is derived from
 * its options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out.
 */
import type { Command } from '@commander-js/extra-typings';
import type { FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type SchemaFlags = FlagsOf<typeof schemaOptions>;

/** @internal */
export const schema = verb({
  name: 'schema', summary: 'Print the JSON Schema of voicectl.yaml, for editors', options: schemaOptions, action: () => import('./schema.js'),
  help: [`Put this line at the top of voicectl.yaml for completion and checks in editors that use
the YAML language server (VS Code's YAML extension, Neovim, JetBrains):
  # yaml-language-server: $schema=./voicectl.schema.json`],
  examples: [{ command: 'voicectl schema > account/voicectl.schema.json' }],
});

/** @internal */
export function schemaOptions(cmd: Command) {
  return cmd
    .option('--run-policy', 'print the JSON Schema of a `campaign run --policy` file instead');
}
