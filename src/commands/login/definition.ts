/**
 * `login`, declared once (src/commands/spec.ts): its flags type is derived from its
 * options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type LoginFlags = FlagsOf<typeof loginOptions>;

/** @internal */
export const login = verb({
  name: 'login', summary: 'Save a base URL and API key to a profile, after checking them', options: loginOptions, action: () => import('./login.js'),
  description: 'Save a base URL and API key to a profile, after checking them with the service',
  help: [`The key is checked with one read (GET /agents?limit=1) before anything is saved.
Choose the profile with --profile or VOICECTL_PROFILE (default "default").`],
  examples: [{ command: 'voicectl login' }, { command: 'voicectl login --profile staging --base-url https://staging.example.com/v1' }, { command: 'printf \'%s\' "$VOICECTL_KEY" | voicectl login --with-key-stdin --base-url https://api.example.com/v1' }],
});

/** @internal */
export function loginOptions(cmd: Command) {
  return cmd
    .option('--with-key-stdin', 'read the API key from stdin (for CI: the key never shows in a process list)');
}
