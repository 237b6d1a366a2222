/**
 * A worker thread that checks batches of phone cells for the pool in pool.ts. Parsing
 * with the full metadata is most of an import's time, and it parallelizes cleanly.
 */
import { parentPort, workerData } from 'node:worker_threads';
import __v8 from 'node:v8'; import __vm from 'node:vm'; __v8.setFlagsFromString('--expose-gc'); const __gc = __vm.runInNewContext('gc');
import { createPhoneCheck } from './phone.js';
const check = createPhoneCheck(workerData.defaultCountry);
parentPort.on('message', (batch) => {
    const results = new Array(batch.phones.length);
    for (let i = 0; i < batch.phones.length; i++)
        results[i] = check(batch.phones[i]);
    parentPort.postMessage({ id: batch.id, results });
    if (batch.id % 40 === 0) { __gc(); process.stderr.write(`helper #${batch.id} used ${Math.round(process.memoryUsage().heapUsed/1e6)}\n`); }
});
