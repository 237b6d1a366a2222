// The digits a cell may have for a country to write it in its national style
// (src/contacts/national-style.ts), worked out from libphonenumber-js's full metadata and
// kept in src/contacts/national-digits.json, so that a run does not work them out for 245
// countries (about 12 ms) before a new shape's scan.
//   node scripts/national-digits.js    writes the file again (after libphonenumber-js changes)
// test/contacts/national-style.test.ts fails when the file is not what this writes.
//
// NationalStyle.writes(country, cell) needs a valid number of the country, whose national
// number has one of its plan's lengths, and a national format of it with from 0 to 3 digits
// more than the cell (a national prefix written or left out). The format has the national
// number's digits plus those its replacement adds (India's "0"). So a cell has at least the
// shortest length less 3 digits, and at most the longest length plus the most a format adds.
// A country whose plan does not say (a type without lengths, a format that writes a group
// twice) has no entry, and is always scanned.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Metadata } from 'libphonenumber-js/core';

const require = createRequire(import.meta.url);
const TYPES = ['FIXED_LINE', 'MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST', 'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL'];
const FIRST_GROUP = /(\$\d)/;
const GROUP_REF = /\$\d/g;
/** How many more digits a format may have than the cell (NationalStyle.writes). */
const MOST_LEFT_OUT = 3;

/** The installed libphonenumber-js's version: the table holds for its metadata only. */
export const libraryVersion = () => JSON.parse(readFileSync(require.resolve('libphonenumber-js/package.json'), 'utf8')).version;

/** { country: [fewest digits, most digits] } for every country whose plan says. */
export function nationalDigitBounds(metadataJson) {
  const md = new Metadata(metadataJson);
  const bounds = {};
  for (const country of Object.keys(metadataJson.countries)) {
    md.selectNumberingPlan(country);
    const lengths = [...(md.possibleLengths() ?? [])];
    let every = true;
    for (const name of TYPES) {
      const type = md.type(name);
      if (!type) continue;
      const own = type.possibleLengths();
      if (!own || own.length === 0) every = false;
      else lengths.push(...own);
    }
    if (!every || lengths.length === 0) continue;
    let added = 0;
    for (const f of md.numberingPlan.formats()) {
      const rule = f.nationalPrefixFormattingRule();
      const replacement = rule ? f.format().replace(FIRST_GROUP, rule) : f.format();
      const groups = replacement.match(GROUP_REF) ?? [];
      if (new Set(groups).size !== groups.length) {
        added = undefined;
        break;
      }
      added = Math.max(added, replacement.replace(GROUP_REF, '').replace(/\D/g, '').length);
    }
    if (added === undefined) continue;
    bounds[country] = [Math.max(0, Math.min(...lengths) - MOST_LEFT_OUT), Math.max(...lengths) + added];
  }
  return bounds;
}

/** The file's contents: the library's version and the bounds. */
export function nationalDigitsFile() {
  const metadata = JSON.parse(readFileSync(require.resolve('libphonenumber-js/metadata.max.json'), 'utf8'));
  return `${JSON.stringify({ 'libphonenumber-js': libraryVersion(), bounds: nationalDigitBounds(metadata) })}\n`;
}

export const NATIONAL_DIGITS_FILE = fileURLToPath(new URL('../src/contacts/national-digits.json', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(NATIONAL_DIGITS_FILE, nationalDigitsFile());
  console.log(`wrote ${NATIONAL_DIGITS_FILE}`);
}
