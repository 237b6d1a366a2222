/**
 * The options of `watch` (and `campaign watch`), declared once: its flags type is derived
 * from this definition, so the action module cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import type { Command } from '@commander-js/extra-typings';
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { positiveNumber, type FlagsOf } from '../shared.js';

/** Repeated --fail-if flags add up; the expression is parsed by the verb, before any request. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A TCP port, 0 (any free port) to 65535. */
function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return n;
}

/** @internal */
export function watchOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--interval <seconds>', 'seconds between polls', positiveNumber, 2)
    .option('--serve [port]', 'serve the live report page on 127.0.0.1 (PORT, default any free one) under an unguessable link, until Ctrl-C', port)
    // Not the global request timeout: how long to wait for the campaign to complete.
    .option('--timeout <seconds>', 'stop with exit 1 if the campaign has not completed after this many seconds', positiveNumber)
    .option(
      '--fail-if <expr>',
      'exit 1 when the finished campaign crosses a line, e.g. "failed>5%", "no_answer>=100", "completed<50%" '
        + '(contact statuses or call outcomes; > >= < <= =; a percentage of all contacts or a count; comma-separated)',
      collect,
    );
}

/** @internal */
export type WatchFlags = FlagsOf<typeof watchOptions>;
