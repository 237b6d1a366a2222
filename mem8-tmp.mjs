const { validateContactsFile } = await import('/work/main/.tmp-contacts-build/contacts/index.js');
const t = performance.now();
const r = await validateContactsFile(process.argv[2], { defaultCountry: 'IN', workers: Number(process.argv[3]), collectContacts: false, collectInvalidRows: false });
const ms = performance.now() - t;
console.log('workers', process.argv[3], 'ms', Math.round(ms), 'rows/s', Math.round(r.report.total_rows / ms * 1000), 'maxRSS MB', Math.round(process.resourceUsage().maxRSS / 1024), 'cpu s', (process.cpuUsage().user / 1e6).toFixed(1));
