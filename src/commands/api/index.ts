import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';
import { requestOptions } from './definition.js';

export function apiCommand(ctx: Context): CommandUnknownOpts {
  return requestOptions(group('api')
    .description(`Send a request to the service with the profile's address and key, and print the JSON answer.

Reaches every endpoint, including the ones voicectl has no verb for. GETs are retried as
everywhere in voicectl; POST, PATCH, PUT and DELETE are sent once, and ask first on a
terminal (--yes otherwise). Exit codes follow the table of \`voicectl --help\`.`)
    .argument('<method>', 'GET, POST, PATCH, PUT or DELETE')
    .argument('<path>', 'a path under the base URL, such as /agents or /calls?status=completed'))
    .addHelpText('after', `\nExamples:\n  voicectl api GET /agents --paginate\n  voicectl api GET /calls -f status=completed -F limit=5\n  voicectl api POST /agents -f name=Desk -f voice_name=Aarav -f greeting=Hello -f call_purpose=Support -f prompt="Be brief." -F 'tools=["take_message"]' --yes\n  echo '{"greeting":"Namaste!"}' | voicectl api PATCH /agents/AGENT_ID --input - --yes`)
    .action(lazy(ctx, () => import('./request.js')));
}
