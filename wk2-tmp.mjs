import { Worker, isMainThread, workerData, parentPort } from 'node:worker_threads';
if (isMainThread) {
  const young = Number(process.argv[3]);
  const t = performance.now();
  const w = new Worker(new URL(import.meta.url), { workerData: { file: process.argv[2] }, resourceLimits: young ? { maxYoungGenerationSizeMb: young, maxOldGenerationSizeMb: Number(process.argv[4] || 0) || undefined } : undefined });
  const r = await new Promise((res) => w.once('message', res));
  console.log('young', young, 'ms', Math.round(performance.now() - t), 'rows', r, 'maxRSS MB', Math.round(process.resourceUsage().maxRSS / 1024));
  await w.terminate();
} else {
  const { validateContactsFile } = await import('/work/main/.tmp-contacts-build/contacts/index.js');
  const r = await validateContactsFile(workerData.file, { defaultCountry: 'IN', workers: 0, collectContacts: false, collectInvalidRows: false });
  parentPort.postMessage(r.report.total_rows);
}
