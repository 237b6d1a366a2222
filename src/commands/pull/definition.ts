/**
 * `pull`, declared once (src/commands/spec.ts): its flags type is derived from its
 * options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type PullFlags = FlagsOf<typeof pullOptions>;

/** @internal */
export const pull = verb({
  name: 'pull', summary: 'Write the account\'s agents, documents and webhooks as files (voicectl.yaml)', options: pullOptions, action: () => import('./pull.js'),
  description: 'Write the account\'s agents, documents and webhook endpoints as files (voicectl.yaml)',
  arguments: [new Argument('[dir]', 'folder to write to').default('.')],
  help: [`Writes DIR/voicectl.yaml, long prompts to DIR/prompts/, DIR/voicectl.schema.json for editors,
and DIR/voicectl.lock.json, which maps each agent, document and endpoint to its id (commit it).
Documents are written as references by folder and name: the service offers no download.
Asks before replacing an existing voicectl.yaml (--yes replaces it).`],
  examples: [{ command: 'voicectl sandbox &', comment: 'then paste the export line it prints' }, { command: 'voicectl pull account/', comment: 'the account as files' }, { command: 'voicectl plan account/', comment: '"No changes": the files match the account' }],
});

/** @internal */
export function pullOptions(cmd: Command) {
  return cmd
    .option('--lock <file>', 'lock file to write (default DIR/voicectl.lock.json)');
}
