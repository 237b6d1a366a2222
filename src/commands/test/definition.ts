/** The options of `voicectl test`, declared once. @internal */
import { Option, type Command } from '@commander-js/extra-typings';
import type { FlagsOf } from '../shared.js';

/** @internal */
export function testOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--junit <file>', 'also write a JUnit XML report: one test case per expectation and call')
    .addOption(new Option('--format <format>', 'md: a Markdown summary for pull requests and job summaries').choices(['md']));
}

/** @internal */
export type TestFlags = FlagsOf<typeof testOptions>;
