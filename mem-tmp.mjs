const { validateContactsFile } = await import('/work/main/.tmp-contacts-build/contacts/index.js');
const workers = Number(process.argv[3]);
let maxQ = 0;
const t = performance.now();
const timer = setInterval(() => { const m = process.memoryUsage(); maxQ = Math.max(maxQ, m.rss); }, 50);
const r = await validateContactsFile(process.argv[2], { defaultCountry: 'IN', workers, collectContacts: false, collectInvalidRows: false });
clearInterval(timer);
console.log('workers', workers, 'ms', Math.round(performance.now() - t), 'rows', r.report.total_rows, 'maxRSS(sampled) MB', Math.round(maxQ / 1e6), 'resourceUsage maxRSS MB', Math.round(process.resourceUsage().maxRSS / 1024));
