import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { lazy, group } from '../shared.js';
import { demoOptions } from './definition.js';

export function demoCommand(ctx: Context): CommandUnknownOpts {
  return demoOptions(group('demo')
    .description('Run a whole campaign against a built-in sandbox: no key, no network, no balance used'))
    .addHelpText('after', `
Starts a local sandbox of the service, creates an agent, builds a campaign from the bundled
fixtures/leads.csv (Indian and international numbers, checked like \`campaign create\` does),
launches it, follows it to completion in simulated time, prints the calls and writes a CSV
export. Your saved profile and API key are never read or changed.`)
    .addHelpText('after', `\nExamples:\n  voicectl demo\n  voicectl demo --out demo-calls.csv`)
    .action(lazy(ctx, () => import('./demo.js')));
}
