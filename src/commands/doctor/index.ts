import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';

export function doctorCommand(ctx: Context): CommandUnknownOpts {
  return group('doctor')
    .description(`Check, one at a time, what voicectl needs: the profile and the config file's modes, that
the service answers and how fast, the key's scopes, the clock against the service's, the
proxy, webhook endpoints with recent failed deliveries, the do-not-call file's age, the
calling hours, Node and the caches. Each problem says how to fix it.

Only reads: nothing is written to the service. Exits 1 when a check fails (warnings
exit 0); --json prints every check as {check, status, message, fix, details}.`)
    .addHelpText('after', `\nExamples:\n  voicectl doctor\n  voicectl doctor --json`)
    .action(lazy(ctx, () => import('./doctor.js')));
}
