#!/usr/bin/env node
// The full differential test of phone verdicts: voicectl (the built dist/) against
// libphonenumber-js's parsePhoneNumberFromString(cell, { defaultCountry }) with the full
// metadata, over seeded cells (scripts/phone-cells.js). Two passes:
//   1. every cell through createPhoneCheck, the per-cell check of `contacts validate`;
//   2. every cell again in CSV files read by validateContactsFile, as `contacts validate`
//      and `campaign create --csv` read them: files over 4 MiB, so the reading runs in
//      the bounded worker thread and the numbers are checked by the worker pool too;
//   3. mixed lists: the cells with a Country column (codes, names, dial codes, some empty),
//      in files as large, where a row with a country must get the library's verdict with it.
// Prints the counts; exits 1 on any difference outside docs/contacts.md's list.
//   npm run differential                       (builds first)
//   node scripts/differential.js [--cells N] [--seed N] [--no-files]
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { baseNumbers, compareCell, generateCells, mixedRows, runDifferential, STYLES } from './phone-cells.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', 'contacts', 'index.js');
if (!existsSync(built)) {
  console.error('dist/ is missing: run `npm run build` first (npm run differential does).');
  process.exit(2);
}
const { createPhoneCheck, validateContactsFile } = await import(built);

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
};
const CELLS = arg('--cells', 210_000);
const SEED = arg('--seed', 20261123);
const FILES = !process.argv.includes('--no-files');

const t0 = performance.now();
const bases = baseNumbers(SEED);
const countries = new Set(bases.map((b) => b.country).filter(Boolean)).size;
console.log(`numbers: ${bases.length} (${countries} countries: example mobiles, fixed lines and toll-free from the metadata's patterns; non-geographic codes)`);
console.log(`styles: ${Object.keys(STYLES).length}; seed ${SEED}`);

const t1 = performance.now();
const s = runDifferential({ seed: SEED, count: CELLS, bases, checkFor: (country) => createPhoneCheck(country) });
const direct = (performance.now() - t1) / 1000;
console.log('');
console.log(`pass 1, per cell (createPhoneCheck): ${s.cells.toLocaleString('en-US')} cells in ${direct.toFixed(1)} s`);
console.log(`  the library reads ${s.libraryValid.toLocaleString('en-US')} as valid, ${(s.cells - s.libraryValid).toLocaleString('en-US')} as invalid; ${s.mutated.toLocaleString('en-US')} cells mutated`);
console.log(`  same verdict and E.164: ${s.same.toLocaleString('en-US')}`);
for (const [kind, n] of Object.entries(s.documented)) console.log(`  documented difference, ${kind}: ${n.toLocaleString('en-US')}`);
console.log(`  undocumented differences: ${s.undocumented}`);
for (const e of s.examples) console.log(`    ${JSON.stringify(e.cell)} (${e.defaultCountry ?? 'no default country'}, ${e.style}${e.mutation ? `, ${e.mutation}` : ''}): library ${e.library}, voicectl ${e.voicectl}`);
let undocumented = s.undocumented;

if (FILES) {
  // Every cell under each file's default country, whatever country it was written for.
  const cells = [...generateCells({ seed: SEED, count: CELLS, bases })].map((c) => c.cell);
  const t2 = performance.now();
  const files = await throughFiles('cells', ['phone'], cells, (cell) => [cell], (cell, country, answer) => {
    const r = compareCell(cell, country, answer);
    return r.undocumented ? `${JSON.stringify(cell)} (${country ?? 'no default country'}): library ${r.library}, voicectl ${r.voicectl}` : undefined;
  });
  console.log('');
  console.log(`pass 2, through CSV files (validateContactsFile, worker threads): ${files.rows.toLocaleString('en-US')} rows under --default-country IN and none, in ${((performance.now() - t2) / 1000).toFixed(1)} s`);
  console.log(`  undocumented differences: ${files.diffs}`);
  for (const e of files.examples) console.log(`    ${e}`);
  undocumented += files.diffs;

  // Pass 3: mixed lists, each row with its own country (or none: then the file's default).
  const mixed = [...mixedRows({ seed: SEED, count: CELLS, bases })];
  const t3 = performance.now();
  let withCountry = 0;
  const mixedFiles = await throughFiles('mixed', ['phone', 'Country'], mixed, (r) => [r.cell, r.countryCell], (r, country, answer) => {
    if (r.country !== undefined) withCountry++;
    const res = compareCell(r.cell, r.country ?? country, answer, { rowCountry: r.country !== undefined });
    return res.undocumented ? `${JSON.stringify(r.cell)} (country cell ${JSON.stringify(r.countryCell)}, default ${country ?? 'none'}): library ${res.library}, voicectl ${res.voicectl}` : undefined;
  });
  console.log('');
  console.log(`pass 3, mixed lists with a Country column (worker threads): ${mixedFiles.rows.toLocaleString('en-US')} rows, ${withCountry.toLocaleString('en-US')} with a country, under --default-country IN and none, in ${((performance.now() - t3) / 1000).toFixed(1)} s`);
  console.log(`  undocumented differences: ${mixedFiles.diffs}`);
  for (const e of mixedFiles.examples) console.log(`    ${e}`);
  undocumented += mixedFiles.diffs;
}

console.log('');
console.log(`total ${((performance.now() - t0) / 1000).toFixed(1)} s: ${undocumented === 0 ? 'no undocumented differences' : `${undocumented} UNDOCUMENTED DIFFERENCES`}`);
process.exitCode = undocumented === 0 ? 0 : 1;

/**
 * `rows` in CSV files of 40,000 rows each (columns id, `fields`, a note that pads them past
 * 4 MiB, so the reading takes the worker path), read by validateContactsFile under
 * --default-country IN and none. `check(row, country, answer)` compares a row's answer (its
 * E.164 number or its error) with the library's and returns an example line when they differ
 * outside the documented list. Returns the rows read, the differences and 20 examples.
 */
async function throughFiles(name, fields, rows, cellsOf, check) {
  const PER_FILE = 40_000;
  const pad = 'x'.repeat(80);
  const dir = mkdtempSync(join(tmpdir(), 'voicectl-differential-'));
  const out = { rows: 0, diffs: 0, examples: [] };
  try {
    for (const country of ['IN', undefined]) {
      for (let start = 0; start < rows.length; start += PER_FILE) {
        const chunk = rows.slice(start, start + PER_FILE);
        const file = join(dir, `${name}-${country ?? 'none'}-${start}.csv`);
        writeFileSync(file, Papa.unparse({ fields: ['id', ...fields, 'note'], data: chunk.map((r, i) => [String(start + i), ...cellsOf(r), pad]) }, { quotes: true }));
        const big = statSync(file).size >= 4 * 1024 * 1024;
        const { contacts, report } = await validateContactsFile(file, { defaultCountry: country, keepDuplicates: true, collectInvalidRows: false });
        const byRow = new Map();
        for (const c of contacts) byRow.set(c.row, c.phone_number);
        for (const e of report.errors) byRow.set(e.row, e.column === 'Country' ? `(country cell refused: ${e.message})` : e.message);
        chunk.forEach((r, i) => {
          const example = check(r, country, byRow.get(i + 2) ?? '(no answer for this row)');
          if (example === undefined) return;
          out.diffs++;
          if (out.examples.length < 20) out.examples.push(example);
        });
        out.rows += chunk.length;
        if (!big && chunk.length === PER_FILE) console.log(`  note: ${file} is under 4 MiB, so it was read on the main thread`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
