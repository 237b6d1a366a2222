// Phone cells as people write them, and the comparison of voicectl's verdict on each with
// libphonenumber-js's. Shared by test/contacts/differential.test.ts (a seeded sample, on
// the TypeScript sources) and scripts/differential.js (the full count, on dist/).
//
// The numbers: for every country, its example mobile number (libphonenumber-js ships
// them) and numbers drawn from the metadata's own patterns for fixed lines and toll-free
// lines, kept only when the library says they are valid and of that type; the same for
// the non-geographic calling codes (+800, +882 ...). Each is written in many styles and
// some are mutated (a digit dropped, added or changed; punctuation inserted).
import { createRequire } from 'node:module';
import { getCountries, getCountryCallingCode, getExampleNumber, Metadata, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';

const maxJson = createRequire(import.meta.url)('libphonenumber-js/metadata.max.json');

/** A small seeded generator (mulberry32), so a difference names a cell that can be checked again. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, xs) => xs[Math.floor(random() * xs.length)];

// ---------------------------------------------------------------------------------------
// Numbers drawn from a numbering plan's patterns. The metadata's patterns use a small part
// of regular expressions: digits, \d, [classes], (?:groups), |, ?, *, + and {n,m}.

function parsePattern(src) {
  let i = 0;
  function alt() {
    const options = [seq()];
    while (src[i] === '|') {
      i++;
      options.push(seq());
    }
    return { alt: options };
  }
  function seq() {
    const items = [];
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      const node = atom();
      let min = 1;
      let max = 1;
      const q = src[i];
      if (q === '?') { min = 0; max = 1; i++; }
      else if (q === '*') { min = 0; max = 3; i++; }
      else if (q === '+') { min = 1; max = 3; i++; }
      else if (q === '{') {
        const end = src.indexOf('}', i);
        const [a, b] = src.slice(i + 1, end).split(',');
        min = Number(a);
        max = b === undefined ? min : b === '' ? min + 3 : Number(b);
        i = end + 1;
      }
      items.push({ node, min, max });
    }
    return items;
  }
  function atom() {
    const c = src[i];
    if (c === '(') {
      i += src.startsWith('(?:', i) ? 3 : 1;
      const inner = alt();
      if (src[i] !== ')') throw new Error(`unexpected pattern at ${i}: ${src}`);
      i++;
      return inner;
    }
    if (c === '[') {
      const end = src.indexOf(']', i);
      const body = src.slice(i + 1, end);
      i = end + 1;
      const set = [];
      for (let j = 0; j < body.length; j++) {
        if (body[j] === '\\' && body[j + 1] === 'd') { set.push(...'0123456789'); j++; }
        else if (body[j + 1] === '-' && j + 2 < body.length) {
          for (let d = body.charCodeAt(j); d <= body.charCodeAt(j + 2); d++) set.push(String.fromCharCode(d));
          j += 2;
        } else set.push(body[j]);
      }
      return { set };
    }
    if (c === '\\' && src[i + 1] === 'd') {
      i += 2;
      return { set: [...'0123456789'] };
    }
    if (/\d/.test(c)) {
      i++;
      return { set: [c] };
    }
    throw new Error(`unexpected "${c}" in pattern: ${src}`);
  }
  const tree = alt();
  if (i !== src.length) throw new Error(`pattern not fully read: ${src}`);
  return tree;
}

function sample(node, random) {
  if (node.set) return pick(random, node.set);
  const items = pick(random, node.alt);
  let out = '';
  for (const { node: n, min, max } of items) {
    const times = min + Math.floor(random() * (max - min + 1));
    for (let k = 0; k < times; k++) out += sample(n, random);
  }
  return out;
}

/** Up to `want` distinct valid numbers of `type` for a plan (a country or a non-geographic calling code). */
function drawNumbers(plan, callingCode, type, want, random) {
  const md = new Metadata(maxJson);
  md.selectNumberingPlan(plan);
  const pattern = md.type(type)?.pattern();
  if (!pattern) return [];
  let tree;
  try {
    tree = parsePattern(pattern);
  } catch {
    return [];
  }
  const found = new Set();
  for (let tries = 0; tries < 200 && found.size < want; tries++) {
    const phone = parsePhoneNumberFromString(`+${callingCode}${sample(tree, random)}`);
    if (!phone || !phone.isValid()) continue;
    const got = phone.getType();
    if (got === type || (type === 'FIXED_LINE' && got === 'FIXED_LINE_OR_MOBILE')) found.add(phone.number);
  }
  return [...found];
}

/**
 * The base numbers, each an E.164 string with how it was found: every country's example
 * mobile number, two fixed-line and one toll-free number from its patterns, and numbers
 * of every non-geographic calling code.
 */
export function baseNumbers(seed = 1) {
  const random = rng(seed);
  const out = [];
  for (const country of getCountries()) {
    const example = getExampleNumber(country, examples);
    if (example) out.push({ e164: example.number, country, type: 'MOBILE example' });
    const code = maxJson.countries[country][0];
    for (const e164 of drawNumbers(country, code, 'FIXED_LINE', 2, random)) out.push({ e164, country, type: 'FIXED_LINE' });
    for (const e164 of drawNumbers(country, code, 'TOLL_FREE', 1, random)) out.push({ e164, country, type: 'TOLL_FREE' });
  }
  for (const code of Object.keys(maxJson.nonGeographic)) {
    for (const type of ['FIXED_LINE', 'MOBILE', 'TOLL_FREE', 'PREMIUM_RATE', 'SHARED_COST', 'VOIP', 'UAN']) {
      for (const e164 of drawNumbers(code, code, type, 1, random)) out.push({ e164, country: undefined, type });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Written styles.

const DIGIT_ZEROS = { arabicIndic: 0x660, persian: 0x6f0, devanagari: 0x966, fullwidth: 0xff10 };
const ZEROS = [0x30, ...Object.values(DIGIT_ZEROS)];

function digitsIn(text, zero) {
  return text.replace(/[0-9]/g, (d) => String.fromCharCode(zero + Number(d)));
}

/** Where `ch` is a digit in one of the scripts used here: its script's zero, else undefined. */
function zeroOf(ch) {
  const cp = ch.codePointAt(0);
  return ZEROS.find((z) => cp >= z && cp <= z + 9);
}

const FOREIGN = ['IN', 'US', 'GB', 'DE', 'FR', 'BR', 'AE', 'AU'];
const LEADING = ['.', '-', '(', '*', '#', "'", '"', ',', ' ', '\u00a0', ':', '/', '+'];
const TRAILING = ['.', '-', ')', ',', ';', '#', ' ', '/', '*', ':', '\u00a0', '"'];

/**
 * Each style: (number, random) => [cell, defaultCountry] or undefined when the style
 * does not apply (a national style for a non-geographic number).
 */
export const STYLES = {
  e164: (n, r) => [n.e164, anyCountry(n, r)],
  international: (n, r) => [n.intl, anyCountry(n, r)],
  'international, dashes': (n, r) => [n.intl.replaceAll(' ', '-'), anyCountry(n, r)],
  'international, dots': (n, r) => [n.intl.replaceAll(' ', '.'), anyCountry(n, r)],
  'international, slashes': (n, r) => [n.intl.replaceAll(' ', '/'), anyCountry(n, r)],
  national: (n) => n.country && [n.national, n.country],
  'national, digits only': (n) => n.country && [n.nationalDigits, n.country],
  'national, dashes': (n) => n.country && [n.national.replaceAll(' ', '-'), n.country],
  'national, dots': (n) => n.country && [n.national.replaceAll(' ', '.'), n.country],
  'national, slash after the area code': (n) => n.country && [n.national.replace(' ', '/'), n.country],
  'national, area code in parentheses': (n) => n.country && [n.national.includes(' ') ? n.national.replace(/^(\S+) /, '($1) ') : `(${n.national})`, n.country],
  'national, no default country': (n) => n.country && [n.national, undefined],
  'national, another default country': (n, r) => n.country && [n.national, pick(r, FOREIGN.filter((c) => c !== n.country))],
  '(+CC) rest': (n, r) => [`(+${n.cc}) ${n.rest}`, anyCountry(n, r)],
  '+CC (0) rest': (n, r) => [`+${n.cc} (0)${n.rest}`, anyCountry(n, r)],
  '+CC and the national form': (n, r) => n.country && [`+${n.cc} ${n.national}`, anyCountry(n, r)],
  '00 international prefix': (n, r) => [`00${n.cc} ${n.rest}`, pick(r, [n.country, 'IN', 'GB', 'DE', undefined])],
  '011 international prefix (US)': (n) => [`011 ${n.cc} ${n.rest}`, 'US'],
  'CC without +': (n) => n.country && [`${n.cc} ${n.rest}`, n.country],
  'fullwidth +': (n, r) => [`＋${n.intl.slice(1)}`, anyCountry(n, r)],
  'fullwidth digits': (n, r) => [digitsIn(n.intl, DIGIT_ZEROS.fullwidth), anyCountry(n, r)],
  'Arabic-Indic digits': (n, r) => [digitsIn(n.intl, DIGIT_ZEROS.arabicIndic), anyCountry(n, r)],
  'Persian digits': (n, r) => [digitsIn(n.intl, DIGIT_ZEROS.persian), anyCountry(n, r)],
  'Devanagari digits': (n, r) => [digitsIn(pick(r, [n.intl, n.national ?? n.intl]), DIGIT_ZEROS.devanagari), n.country],
  'no-break spaces': (n, r) => [pick(r, [n.intl, n.national ?? n.intl]).replaceAll(' ', '\u00a0'), n.country],
  'thin spaces': (n, r) => [pick(r, [n.intl, n.national ?? n.intl]).replaceAll(' ', pick(r, ['\u2009', '\u202f', '\u3000'])), n.country],
  'stray punctuation': (n, r) => [`${pick(r, ['', ...LEADING])}${pick(r, [n.intl, n.e164, n.national ?? n.intl])}${pick(r, ['', ...TRAILING])}`, n.country],
  'apostrophe, as spreadsheets keep a +': (n, r) => [`'${n.intl}`, anyCountry(n, r)],
  // Cells voicectl refuses on purpose (docs/contacts.md): they keep the classifier honest.
  'words around the number': (n, r) => [pick(r, [`call ${n.intl}`, `${n.intl} (office)`, `Mob: ${n.intl}`, `tel:${n.e164}`]), n.country],
  extension: (n, r) => [`${n.intl}${pick(r, [' ext 12', ' x 7', ' #123', ';ext=45', ' ext. 9'])}`, n.country],
  'two numbers': (n, r) => [`${n.intl}${pick(r, [' / ', ', ', '; ', ' | '])}${pick(r, [n.intl, n.e164])}`, n.country],
};

function anyCountry(n, r) {
  return pick(r, [undefined, n.country, n.country, ...FOREIGN]);
}

/** The forms of one base number that the styles use. */
function forms(base) {
  const phone = parsePhoneNumberFromString(base.e164);
  const intl = phone.formatInternational();
  const cc = phone.countryCallingCode;
  const national = base.country ? phone.formatNational() : undefined;
  return {
    e164: base.e164,
    country: base.country,
    cc,
    intl,
    rest: intl.slice(cc.length + 2),
    national,
    nationalDigits: national?.replace(/\D/g, ''),
  };
}

// ---------------------------------------------------------------------------------------
// Mutations: what a typing slip or a careless export does.

const PUNCTUATION = [' ', '-', '.', '/', '(', ')', '+', ',', ';', '#', '\u00a0'];

export const MUTATIONS = {
  'digit dropped': (cell, r) => {
    const at = digitPositions(cell);
    if (at.length === 0) return cell;
    const i = pick(r, at);
    return cell.slice(0, i) + cell.slice(i + 1);
  },
  'digit added': (cell, r) => {
    const at = digitPositions(cell);
    if (at.length === 0) return cell;
    const i = pick(r, at);
    const zero = zeroOf(cell[i]);
    return cell.slice(0, i) + String.fromCharCode(zero + Math.floor(r() * 10)) + cell.slice(i);
  },
  'digit changed': (cell, r) => {
    const at = digitPositions(cell);
    if (at.length === 0) return cell;
    const i = pick(r, at);
    const zero = zeroOf(cell[i]);
    const was = cell.charCodeAt(i) - zero;
    return cell.slice(0, i) + String.fromCharCode(zero + ((was + 1 + Math.floor(r() * 9)) % 10)) + cell.slice(i + 1);
  },
  'punctuation inserted': (cell, r) => {
    const i = Math.floor(r() * (cell.length + 1));
    return cell.slice(0, i) + pick(r, PUNCTUATION) + cell.slice(i);
  },
};

function digitPositions(cell) {
  const out = [];
  for (let i = 0; i < cell.length; i++) if (zeroOf(cell[i]) !== undefined) out.push(i);
  return out;
}

/**
 * `count` cells, seeded: cell i writes base number (i mod B) in style ((i div B) mod S),
 * so the first B x S cells hold every number in every style; about 40% are then mutated.
 * Each: { cell, defaultCountry, style, mutation, base }.
 */
export function* generateCells({ seed = 1, count, bases = baseNumbers(seed) }) {
  const random = rng(seed ^ 0x5eed);
  const prepared = bases.map(forms);
  const styles = Object.entries(STYLES);
  const mutations = Object.entries(MUTATIONS);
  let made = 0;
  for (let i = 0; made < count; i++) {
    const base = prepared[i % prepared.length];
    const [style, write] = styles[Math.floor(i / prepared.length) % styles.length];
    const written = write(base, random);
    if (!written) continue;
    let [cell, defaultCountry] = written;
    let mutation;
    if (random() < 0.4) {
      const [name, mutate] = pick(random, mutations);
      mutation = name;
      cell = mutate(cell, random);
      if (random() < 0.15) {
        const [name2, mutate2] = pick(random, mutations);
        mutation += `, ${name2}`;
        cell = mutate2(cell, random);
      }
    }
    made++;
    yield { cell, defaultCountry, style, mutation, base: base.e164 };
  }
}

// ---------------------------------------------------------------------------------------
// Mixed lists: rows with a country column, as lists that mix countries are written.

let regionNames;
/** The English name people write for a country (Intl's), or undefined. */
function englishName(country) {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    const name = regionNames.of(country);
    return name && name !== country ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `count` rows of a mixed list, seeded: each generated cell with a country cell beside it,
 * written as an alpha-2 code (either case), an English name or a dial code, mostly the
 * country the number was written for, sometimes another, sometimes empty. Each:
 * { cell, countryCell, country } where `country` is the row's country as the documented
 * rule reads the cell (a dial code stands for its main country; undefined when empty).
 */
export function* mixedRows({ seed = 1, count, bases = baseNumbers(seed) }) {
  const random = rng(seed ^ 0xc0ffee);
  const all = getCountries();
  for (const c of generateCells({ seed, count, bases })) {
    const own = bases.find((b) => b.e164 === c.base)?.country;
    const r = random();
    const country = r < 0.1 ? undefined : r < 0.75 && own ? own : pick(random, [...FOREIGN, pick(random, all)]);
    if (country === undefined) {
      yield { cell: c.cell, countryCell: pick(random, ['', ' ']), country: undefined };
      continue;
    }
    const form = random();
    if (form < 0.3) yield { cell: c.cell, countryCell: country, country };
    else if (form < 0.45) yield { cell: c.cell, countryCell: country.toLowerCase(), country };
    else if (form < 0.75 && englishName(country)) yield { cell: c.cell, countryCell: englishName(country), country };
    else {
      const code = getCountryCallingCode(country);
      yield { cell: c.cell, countryCell: pick(random, [`+${code}`, code]), country: maxJson.country_calling_codes[code][0] };
    }
  }
}

// ---------------------------------------------------------------------------------------
// The comparison, and the documented differences.

/**
 * Which of voicectl's documented differences from the library a cell falls under
 * (docs/contacts.md, "Where voicectl and libphonenumber differ"), or undefined. These
 * are the only cells where voicectl may answer "invalid" while the library reads a
 * valid number; it must never answer a different number.
 *   words:       a letter in the cell (not U+30FC, which the library reads as a dash)
 *   extension:   the library reads an extension
 *   two numbers: the cell splits at " / " (spaces around the slash), "," ";" "|" or "&"
 *                into two or more parts, each of which the library reads as a valid
 *                number on its own
 */
export function documentedDifference(cell, defaultCountry, library = parsePhoneNumberFromString(cell, { defaultCountry })) {
  if (/[^\P{L}\u30fc]/u.test(cell)) return 'words';
  if (library?.ext) return 'extension';
  const parts = cell.split(/\s[/\uff0f]\s|[,;|&]/).filter((p) => /\d/.test(p));
  if (parts.length >= 2 && parts.every((p) => parsePhoneNumberFromString(p, { defaultCountry })?.isValid())) return 'two numbers';
  return undefined;
}

/**
 * The fourth documented difference (docs/contacts.md, "Numbers in another country's
 * style"), written from the documented rule with the library alone: for a cell read with a
 * default country (never a row's own country), the style it is refused as, or undefined.
 *   North American: digit groups 3, 3, 4 (or "1" and 3, 3, 4), area code and exchange
 *     from 2-9, no "+" and no "00", under a default outside +1, unless the default
 *     country reads it as valid and formats it in those groups itself, every digit written;
 *   a watched country's (IN, GB, AE): under a default of +1, +91, +44 or +971 (and not of
 *     that country's code), the cell has that country's national groups exactly (its
 *     national prefix written or not), is valid there and valid under the default, and the
 *     default's own format does not split where the cell does.
 */
const WATCHED_STYLES = ['IN', 'GB', 'AE'];
const WATCHED_HOMES = new Set(['1', '91', '44', '971']);

export function foreignStyle(cell, defaultCountry) {
  if (!defaultCountry) return undefined;
  const text = cell.replace(/^[\x00-\x20]*'?[\x00-\x20\u00a0]*/, '').replace(/[\x00-\x20\u00a0]+$/, '');
  if (text.length < 2 || text.length > 40 || text.startsWith('00')) return undefined;
  if (!/^[0-9 \t\u00a0().\-/]+$/.test(text)) return undefined;
  const groups = text.match(/[0-9]+/g) ?? [];
  if (groups.length < 2) return undefined;
  const homeCode = getCountryCallingCode(defaultCountry);
  const home = parsePhoneNumberFromString(cell, { defaultCountry });
  const homeValid = Boolean(home?.isValid());
  const homeWrites = (how) => homeValid && splitsAt(home.formatNational(), groups, how);
  const g = groups.length === 4 && groups[0] === '1' ? groups.slice(1) : groups;
  const american = g.length === 3 && g[0].length === 3 && g[1].length === 3 && g[2].length === 4 && /^[2-9]/.test(g[0]) && /^[2-9]/.test(g[1]);
  if (homeCode !== '1' && american && !homeWrites('same digits')) return 'North American';
  if (!homeValid || !WATCHED_HOMES.has(homeCode)) return undefined;
  for (const country of WATCHED_STYLES) {
    const code = getCountryCallingCode(country);
    if (code === homeCode) continue;
    const there = parsePhoneNumberFromString(cell, { defaultCountry: country });
    if (!there?.isValid() || there.countryCallingCode !== code || !splitsAt(there.formatNational(), groups, 'exact')) continue;
    return homeWrites('loose') ? undefined : country;
  }
  return undefined;
}

/**
 * Whether a national format splits its digits where the cell does: 'exact' (the national
 * prefix may be left out), 'same digits' (exact, and no digit of the format left out),
 * 'loose' (the format splits at least where the cell does).
 */
function splitsAt(format, groups, how) {
  const at = (gs) => {
    const out = [];
    let n = 0;
    for (const x of gs) {
      if (n > 0) out.push(n);
      n += x.length;
    }
    return { out, n };
  };
  const f = at(format.match(/[0-9]+/g) ?? []);
  const w = at(groups);
  const shift = f.n - w.n;
  if (shift < 0 || shift > 3 || (how === 'same digits' && shift !== 0)) return false;
  const expected = f.out.map((b) => b - shift).filter((b) => b > 0);
  return how === 'loose' ? w.out.every((b) => expected.includes(b)) : w.out.join(',') === expected.join(',');
}

/** The library's answer for a cell: its E.164 when valid, else undefined. */
export function libraryVerdict(cell, defaultCountry) {
  const phone = parsePhoneNumberFromString(cell, { defaultCountry });
  return { phone, e164: phone && phone.isValid() ? phone.number : undefined };
}

/**
 * One cell: `result` is voicectl's answer (an E.164 starting with "+", or a reason).
 * Returns { same: true }, or the documented difference, or { undocumented: true, ... }.
 */
export function compareCell(cell, defaultCountry, result, { rowCountry = false } = {}) {
  const { phone, e164 } = libraryVerdict(cell, defaultCountry);
  const ours = result.charCodeAt(0) === 43 ? result : undefined;
  const valid = e164 !== undefined;
  if (ours === e164) return { same: true, valid };
  // A row's own country is read exactly as the library reads it: no style is foreign then.
  const foreign = ours === undefined && !rowCountry && foreignStyle(cell, defaultCountry) ? 'foreign style' : undefined;
  const kind = ours === undefined ? documentedDifference(cell, defaultCountry, phone) ?? foreign : undefined;
  if (kind) return { same: false, valid, documented: kind };
  return { same: false, valid, undocumented: true, library: e164 ?? 'invalid', voicectl: result };
}

/**
 * Runs `checkFor(defaultCountry)(cell)` (voicectl's per-cell check) over generated cells.
 * Returns the counts, the differences by kind and style, and the first undocumented ones.
 */
export function runDifferential({ seed = 1, count, checkFor, bases }) {
  const checks = new Map();
  const summary = { cells: 0, libraryValid: 0, same: 0, documented: {}, undocumented: 0, examples: [], styles: new Set(), mutated: 0 };
  for (const c of generateCells({ seed, count, bases })) {
    let check = checks.get(c.defaultCountry);
    if (!check) checks.set(c.defaultCountry, (check = checkFor(c.defaultCountry)));
    const r = compareCell(c.cell, c.defaultCountry, check(c.cell));
    summary.cells++;
    summary.styles.add(c.style);
    if (c.mutation) summary.mutated++;
    if (r.valid) summary.libraryValid++;
    if (r.same) {
      summary.same++;
    } else if (r.documented) {
      summary.documented[r.documented] = (summary.documented[r.documented] ?? 0) + 1;
    } else {
      summary.undocumented++;
      if (summary.examples.length < 20) summary.examples.push({ ...c, library: r.library, voicectl: r.voicectl });
    }
  }
  return summary;
}
