/**
 * The options of the kb verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** Parallel uploads: a few at a time is what a connection and the service handle well. */
function concurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new InvalidArgumentError('expected a whole number from 1 to 16.');
  return n;
}

/** @internal */
export function uploadOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--folder <folder>', 'knowledge-base folder to upload into (created as needed)')
    .option('--wait', 'follow indexing until every document is indexed or failed')
    .option('--concurrency <n>', 'files uploaded at a time, 1 to 16 (default 3)', concurrency);
}

/** @internal */
export function listOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--folder <folder>', 'folder to list');
}

/** @internal */
export function statusOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--wait', 'wait until the job is completed or failed (exit 1 if it failed)');
}

/** @internal */
export type UploadFlags = FlagsOf<typeof uploadOptions>;
/** @internal */
export type ListFlags = FlagsOf<typeof listOptions>;
/** @internal */
export type StatusFlags = FlagsOf<typeof statusOptions>;
