const { validateContactsFile } = await import('/work/main/.tmp-contacts-build/contacts/index.js');
const timer = setInterval(() => { const m = process.memoryUsage(); process.stderr.write(`main heapTotal ${Math.round(m.heapTotal/1e6)} ext ${Math.round(m.external/1e6)} ab ${Math.round(m.arrayBuffers/1e6)} rss ${Math.round(m.rss/1e6)}\n`); }, 3000);
await validateContactsFile(process.argv[2], { defaultCountry: 'IN', workers: 2, collectContacts: false, collectInvalidRows: false });
clearInterval(timer);
