import type { Writable } from 'node:stream';
import { firstEvent } from './first-event.js';

/** Resolves when a writable can take more (or has closed or failed: the next write says which). */
export async function drained(out: Writable): Promise<void> {
  await firstEvent(out, ['drain', 'close', 'error']);
}
