/**
 * Which column is the phone, which is the name, and what goes into `extra`: found from
 * the header row, or named with --phone-column and --name-column.
 */
import { UsageError } from '../errors.js';
/** Header names of the phone column, most specific first (compared after normalizeHeader). */
const PHONE_HEADERS = ['phone', 'phonenumber', 'mobile', 'mobilenumber', 'number', 'contact', 'msisdn', 'whatsapp'];
const NAME_HEADERS = ['name', 'fullname'];
const FIRST_NAME_HEADERS = ['firstname'];
const LAST_NAME_HEADERS = ['lastname'];
/** Case, spaces, underscores (and hyphens and dots) do not matter: "Mobile_Number" = "mobile number". */
export function normalizeHeader(header) {
    return header.toLowerCase().replace(/[\s_.\-]+/g, '');
}
export function mapColumns(rawHeaders, options, fileName) {
    const headers = rawHeaders.map((h) => h.replace(/^\uFEFF/, '').trim());
    const norm = headers.map(normalizeHeader);
    const listed = headers.filter((h) => h !== '').map((h) => JSON.stringify(h)).join(', ') || '(none)';
    let phone;
    if (options.phoneColumn !== undefined) {
        phone = findNamed(headers, norm, options.phoneColumn);
        if (phone === -1) {
            throw new UsageError(`${fileName} has no column "${options.phoneColumn}" (from --phone-column). Headers found: ${listed}.`);
        }
    }
    else {
        phone = findFirst(norm, PHONE_HEADERS);
        if (phone === -1) {
            throw new UsageError(`${fileName} has no phone column. Headers found: ${listed}.`, {
                hint: 'Name the column "phone" (or mobile, phone number, whatsapp, msisdn ...), or pass --phone-column "<header>".',
            });
        }
    }
    let name;
    let firstName;
    let lastName;
    if (options.nameColumn !== undefined) {
        const i = findNamed(headers, norm, options.nameColumn);
        if (i === -1)
            throw new UsageError(`${fileName} has no column "${options.nameColumn}" (from --name-column). Headers found: ${listed}.`);
        if (i === phone)
            throw new UsageError(`--name-column "${options.nameColumn}" is the phone column.`);
        name = i;
    }
    else {
        const i = findFirst(norm, NAME_HEADERS, phone);
        if (i !== -1)
            name = i;
        else {
            const f = findFirst(norm, FIRST_NAME_HEADERS, phone);
            const l = findFirst(norm, LAST_NAME_HEADERS, phone);
            if (f !== -1)
                firstName = f;
            if (l !== -1)
                lastName = l;
        }
    }
    const used = new Set([phone, name, firstName, lastName].filter((i) => i !== undefined));
    const keys = new Set();
    const extra = [];
    headers.forEach((h, index) => {
        if (used.has(index))
            return;
        let key = h === '' ? `column_${index + 1}` : h;
        for (let n = 2; keys.has(key); n++)
            key = `${h || `column_${index + 1}`}_${n}`;
        keys.add(key);
        extra.push({ index, key });
    });
    return { headers, phone, name, firstName, lastName, extra };
}
/** The exact header first, then the same header up to case, spaces and underscores. */
function findNamed(headers, norm, wanted) {
    const exact = headers.indexOf(wanted.trim());
    if (exact !== -1)
        return exact;
    return norm.indexOf(normalizeHeader(wanted));
}
function findFirst(norm, candidates, skip = -1) {
    for (const c of candidates) {
        const i = norm.findIndex((n, idx) => n === c && idx !== skip);
        if (i !== -1)
            return i;
    }
    return -1;
}
/** The contact's name from its cells, or undefined when the cells are empty. */
export function nameOf(map, cells) {
    if (map.name !== undefined)
        return (cells[map.name] ?? '').trim() || undefined;
    const first = map.firstName === undefined ? '' : (cells[map.firstName] ?? '').trim();
    const last = map.lastName === undefined ? '' : (cells[map.lastName] ?? '').trim();
    return [first, last].filter(Boolean).join(' ') || undefined;
}
/** The other columns as strings keyed by header; empty cells are left out. */
export function extraOf(map, cells) {
    const extra = {};
    for (const { index, key } of map.extra) {
        const v = (cells[index] ?? '').trim();
        if (v !== '')
            extra[key] = v;
    }
    return extra;
}
