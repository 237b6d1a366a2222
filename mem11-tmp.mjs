import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';

let w;
if (process.argv[3] === 'worker') { w = new Worker('setInterval(()=>{}, 1000)', { eval: true }); await new Promise(r => setTimeout(r, 200)); }
v8.setFlagsFromString('--semi-space-growth-factor=1');
const { validateContactsFile } = await import('/work/main/.tmp-contacts-build/contacts/index.js');
let maxNew = 0;
const timer = setInterval(() => { const ns = v8.getHeapSpaceStatistics().find(s => s.space_name === 'new_space'); maxNew = Math.max(maxNew, ns.space_size); }, 100);
await validateContactsFile(process.argv[2], { defaultCountry: 'IN', workers: 0, collectContacts: false, collectInvalidRows: false });
clearInterval(timer);
console.log(process.argv[3], 'maxRSS MB', Math.round(process.resourceUsage().maxRSS / 1024), 'max new space MB', Math.round(maxNew / 1e6));
await w?.terminate();
