const { validateContactsFile } = await import('/work/main/.tmp-contacts-build/contacts/index.js');
const t = performance.now();
let progress = 0;
const r = await validateContactsFile(process.argv[2], { defaultCountry: 'IN', collectContacts: false, collectInvalidRows: false, onProgress: (p) => { progress = p.rows; } });
const ms = performance.now() - t;
console.log('cpu', (process.cpuUsage().user/1e6).toFixed(1), 'ms', Math.round(ms), 'rows/s', Math.round(r.report.total_rows / ms * 1000), 'maxRSS MB', Math.round(process.resourceUsage().maxRSS / 1024), 'progress', progress, r.report.invalid, r.report.duplicates);
