/** `voicectl test`, declared once (src/commands/spec.ts). @internal */
import { Argument, Option, type Command } from '@commander-js/extra-typings';
import type { FlagsOf } from '../shared.js';
import { verb } from '../spec.js';

/** @internal */
export type TestFlags = FlagsOf<typeof testOptions>;

/** @internal */
export const test = verb({
  name: 'test', summary: 'Place test calls from a suite and check them against its expectations', options: testOptions, action: () => import('./run.js'),
  description: 'Place test calls to your own numbers, one campaign per run, and check each call against its scenario\'s expectations',
  arguments: [new Argument('<suite>', 'the suite file (YAML: agent, repeat, scenarios with expect: rules)')],
  help: [`Each run is one campaign named "test: SUITE run N/M" holding one contact per scenario.
voicectl says how many calls it will place and asks (--yes to skip), checks calling hours
(the suite's calling_hours, else the profile's, else 09:00-21:00), launches, waits for the
calls, reads their transcripts and reports as calls check does. Exits 1 when an
expectation of severity error fails. A bad suite is refused with its line (exit 2).
In the sandbox, extra.sandbox_persona (interested, busy, opt_out, no_answer,
wrong_language) decides how each call goes: that tests the pipeline and the rules, not
the quality of the agent's prompt. See docs/quality.md.`],
  examples: [{ command: 'voicectl test suite.yaml --yes' }, { command: 'voicectl test suite.yaml --yes --junit test-calls.xml' }],
});

/** @internal */
export function testOptions(cmd: Command) {
  return cmd
    .option('--junit <file>', 'also write a JUnit XML report: one test case per expectation and call')
    .addOption(new Option('--format <format>', 'md: a Markdown summary for pull requests and job summaries').choices(['md']));
}
