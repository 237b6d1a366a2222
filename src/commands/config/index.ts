import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { PROFILE_KEYS } from '../../config/profiles.js';
import { checkKey } from '../../config/store.js';
import { group, lazy } from '../shared.js';

/** The key argument: choices for help and completion, checked by checkKey (accepts base-url too). */
function keyArgument() {
  return new Argument('<key>', 'setting name').choices(PROFILE_KEYS).argParser(checkKey);
}

export function configCommand(ctx: Context): CommandUnknownOpts {
  const config = group('config');
  config.addHelpText('after', `
Keys: base_url (http(s) URL), api_key (shown masked), default_country (ISO 3166 alpha-2, e.g. IN),
timezone (IANA zone of the times shown and of dates typed, e.g. Asia/Kolkata; default the system's),
timeout (seconds), webhook_secret (shown masked) and webhook_endpoint (saved by \`webhook ... --save-secret\`),
do_not_call_file (a list every campaign leaves out) and calling_hours (local window, e.g. 10:00-19:00).
The profile is --profile, VOICECTL_PROFILE or "default". Flags and environment variables override the profile.`);

  config
    .command('list')
    .alias('ls')
    .description('Show the profile\'s settings (the API key masked) and where the file is')
    .addHelpText('after', `\nExamples:\n  voicectl config list\n  voicectl config list --profile staging --json`)
    .action(lazy(ctx, () => import('./list.js')));

  config
    .command('get')
    .description('Print one setting of the profile (the API key masked)')
    .addArgument(keyArgument())
    .addHelpText('after', `\nExamples:\n  voicectl config get base_url\n  voicectl config get default_country --profile staging`)
    .action(lazy(ctx, () => import('./get.js')));

  config
    .command('set')
    .description('Check and save one setting in the profile')
    .addArgument(keyArgument())
    .argument('<value>', 'the new value')
    .addHelpText('after', `\nExamples:\n  voicectl config set default_country IN\n  voicectl config set timeout 60 --profile staging`)
    .action(lazy(ctx, () => import('./set.js')));

  config
    .command('unset')
    .description('Remove one setting from the profile')
    .addArgument(keyArgument())
    .addHelpText('after', `\nExamples:\n  voicectl config unset default_country`)
    .action(lazy(ctx, () => import('./unset.js')));

  return config;
}
