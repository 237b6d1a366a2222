import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';
import { testOptions } from './definition.js';

export function testCommand(ctx: Context): CommandUnknownOpts {
  return testOptions(group('test')
    .description('Place test calls to your own numbers, one campaign per run, and check each call against its scenario\'s expectations')
    .argument('<suite>', 'the suite file (YAML: agent, repeat, scenarios with expect: rules)'))
    .addHelpText('after', `
Each run is one campaign named "test: SUITE run N/M" holding one contact per scenario.
voicectl says how many calls it will place and asks (--yes to skip), checks calling hours
(the suite's calling_hours, else the profile's, else 09:00-21:00), launches, waits for the
calls, reads their transcripts and reports as calls check does. Exits 1 when an
expectation of severity error fails. A bad suite is refused with its line (exit 2).
In the sandbox, extra.sandbox_persona (interested, busy, opt_out, no_answer,
wrong_language) decides how each call goes: that tests the pipeline and the rules, not
the quality of the agent's prompt. See docs/quality.md.

Examples:
  voicectl test suite.yaml --yes
  voicectl test suite.yaml --yes --junit test-calls.xml`)
    .action(lazy(ctx, () => import('./run.js')));
}
