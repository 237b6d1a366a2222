/**
 * A worker thread that checks batches of phone cells for the pool in pool.ts. Parsing
 * with the full metadata is most of an import's time, and it parallelizes cleanly.
 */
import { parentPort, workerData, threadId } from 'node:worker_threads';
import { createPhoneCheck } from './phone.js';
const check = createPhoneCheck(workerData.defaultCountry);
parentPort.on('message', (batch) => {
    const results = new Array(batch.phones.length);
    for (let i = 0; i < batch.phones.length; i++)
        results[i] = check(batch.phones[i]);
    parentPort.postMessage({ id: batch.id, results }); if (batch.id % 100 === 0) { const m = process.memoryUsage(); process.stderr.write(`w${threadId} #${batch.id} heapTotal ${Math.round(m.heapTotal/1e6)} used ${Math.round(m.heapUsed/1e6)} ext ${Math.round(m.external/1e6)} ab ${Math.round(m.arrayBuffers/1e6)} rss ${Math.round(m.rss/1e6)}\n`); }
});
