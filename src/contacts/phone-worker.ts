/**
 * A worker thread that checks batches of phone cells for the pool in pool.ts. Parsing
 * with the full metadata is most of an import's time, and it parallelizes cleanly.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createRowCheck } from './phone.js';

export interface PhoneBatch {
  id: number;
  phones: string[];
  /** Each row's own country (a country column), or null; absent when no row of the batch has one. */
  countries?: Array<string | null>;
}

export interface PhoneResults {
  id: number;
  results: string[];
}

const check = createRowCheck((workerData as { defaultCountry?: string }).defaultCountry);

parentPort!.on('message', (batch: PhoneBatch) => {
  const results = new Array<string>(batch.phones.length);
  const countries = batch.countries;
  for (let i = 0; i < batch.phones.length; i++) results[i] = check(batch.phones[i]!, countries?.[i] ?? undefined);
  parentPort!.postMessage({ id: batch.id, results } satisfies PhoneResults);
});
