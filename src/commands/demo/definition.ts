/**
 * `demo`, declared once (src/commands/spec.ts): its flags type is derived from its
 * options, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type DemoFlags = FlagsOf<typeof demoOptions>;

/** @internal */
export const demo = verb({
  name: 'demo', summary: 'Run a whole campaign against a built-in sandbox: no key, no network', options: demoOptions, action: () => import('./demo.js'),
  description: 'Run a whole campaign against a built-in sandbox: no key, no network, no balance used',
  help: [`Starts a local sandbox of the service, creates an agent, builds a campaign from the bundled
fixtures/leads.csv (Indian and international numbers, checked like \`campaign create\` does),
launches it, follows it to completion in simulated time, prints the calls and writes a CSV
export. Your saved profile and API key are never read or changed.`],
  examples: [{ command: 'voicectl demo' }, { command: 'voicectl demo --out demo-calls.csv' }],
});

/** @internal */
export function demoOptions(cmd: Command) {
  return cmd
    .option('--out <file>', 'where to write the CSV export of the calls (default: a new temporary directory)');
}
