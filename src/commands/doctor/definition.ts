/** `voicectl doctor`, declared once (src/commands/spec.ts). @internal */
import { verb } from '../spec.js';

/** @internal */
export const doctor = verb({
  name: 'doctor', summary: 'Check the profile, the service, the key\'s scopes, the clock and more; say how to fix each problem', action: () => import('./doctor.js'),
  description: `Check, one at a time, what voicectl needs: the profile and the config file's modes, that
the service answers and how fast, the key's scopes, the clock against the service's, the
proxy, webhook endpoints with recent failed deliveries, the do-not-call file (read as
campaigns read it) and its age, the calling hours, the time zone, Node and the caches.
Each problem says how to fix it.

Only reads: nothing is written to the service. Exits 1 when a check fails (warnings
exit 0); --json prints every check as {check, status, message, fix, details}.`,
  examples: [{ command: 'voicectl doctor' }, { command: 'voicectl doctor --json' }],
});
