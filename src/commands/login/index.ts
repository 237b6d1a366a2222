import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';
import { loginOptions } from './definition.js';

export function loginCommand(ctx: Context): CommandUnknownOpts {
  return loginOptions(group('login')
    .description('Save a base URL and API key to a profile, after checking them with the service'))
    .addHelpText('after', `
The key is checked with one read (GET /agents?limit=1) before anything is saved.
Choose the profile with --profile or VOICECTL_PROFILE (default "default").

Examples:
  voicectl login
  voicectl login --profile staging --base-url https://staging.example.com/v1
  printf '%s' "$VOICECTL_KEY" | voicectl login --with-key-stdin --base-url https://api.example.com/v1`)
    .action(lazy(ctx, () => import('./login.js')));
}
