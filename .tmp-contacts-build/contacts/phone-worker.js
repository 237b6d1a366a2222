/**
 * A worker thread that checks batches of phone cells for the pool in pool.ts. Parsing
 * with the full metadata is most of an import's time, and it parallelizes cleanly.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createPhoneCheck } from './phone.js';
const check = createPhoneCheck(workerData.defaultCountry);
parentPort.on('message', (batch) => {
    const results = new Array(batch.phones.length);
    for (let i = 0; i < batch.phones.length; i++)
        results[i] = check(batch.phones[i]);
    parentPort.postMessage({ id: batch.id, results });
});
