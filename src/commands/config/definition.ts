/** The config verbs, each declared once (src/commands/spec.ts). @internal */
import { Argument } from '@commander-js/extra-typings';
import { PROFILE_KEYS } from '../../config/profiles.js';
import { checkKey } from '../../config/store.js';
import { verb, type Group } from '../spec.js';

/** The key argument: choices for help and completion, checked by checkKey (accepts base-url too). */
const keyArgument = () => new Argument('<key>', 'setting name').choices(PROFILE_KEYS).argParser(checkKey);

/** @internal */
export const config: Group = {
  name: 'config', summary: 'Show and change the settings saved in a profile',
  help: [`Keys: base_url (http(s) URL), api_key (shown masked), default_country (ISO 3166 alpha-2, e.g. IN),
timezone (IANA zone of the times shown and of dates typed, e.g. Asia/Kolkata; default the system's),
timeout (seconds), webhook_secret (shown masked) and webhook_endpoint (saved by \`webhook ... --save-secret\`),
do_not_call_file (a list every campaign leaves out), calling_hours (local window, e.g. 10:00-19:00)
and rate_card (your prices per country, a YAML file checked when set: cost in campaign run and report).
The profile is --profile, VOICECTL_PROFILE or "default". Flags and environment variables override the profile.`],
  verbs: [
    verb({ name: 'list', alias: 'ls', summary: 'Show the profile\'s settings (the API key masked) and where the file is', action: () => import('./list.js'),
      examples: [{ command: 'voicectl config list' }, { command: 'voicectl config list --profile staging --json' }] }),
    verb({ name: 'get', summary: 'Print one setting of the profile (the API key masked)', arguments: [keyArgument()], action: () => import('./get.js'),
      examples: [{ command: 'voicectl config get base_url' }, { command: 'voicectl config get default_country --profile staging' }] }),
    verb({ name: 'set', summary: 'Check and save one setting in the profile', arguments: [keyArgument(), new Argument('<value>', 'the new value')], action: () => import('./set.js'),
      examples: [{ command: 'voicectl config set default_country IN' }, { command: 'voicectl config set timeout 60 --profile staging' }] }),
    verb({ name: 'unset', summary: 'Remove one setting from the profile', arguments: [keyArgument()], action: () => import('./unset.js'),
      examples: [{ command: 'voicectl config unset default_country' }] }),
  ],
};
