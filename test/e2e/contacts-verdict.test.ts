/**
 * A CRM export of 50 Indian contacts written as people write them, `(+91) 98 7654 3210`,
 * `+91-98765-43210`, `098765 43210` and landlines (`011 2345 6789`, `+91 22 …`,
 * `(022) …`), becomes one campaign with all 50, each number exactly as libphonenumber-js
 * reads it; the JSON contacts path gives the same numbers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { givenAgent, ok } from '../helpers/given.js';

const FILE = 'fixtures/contacts/indian-crm-50.csv';
const rows = Papa.parse<Record<string, string>>(readFileSync(FILE, 'utf8'), { header: true, skipEmptyLines: true }).data;
/** What the library makes of each cell: the numbers the sandbox must receive. */
const expected = rows.map((r) => {
  const phone = parsePhoneNumberFromString(r.Mobile!, { defaultCountry: 'IN' });
  return phone?.isValid() ? phone.number : `invalid: ${r.Mobile}`;
});

let h: Harness;
beforeAll(async () => {
  h = await harness();
  await givenAgent(h.api, { name: 'Renewals desk' });
});
afterAll(async () => h.close());

describe('a CRM export of Indian numbers in every local style', () => {
  it('the fixture has the styles it claims, and the library reads all 50 as distinct valid numbers', () => {
    expect(rows).toHaveLength(50);
    const cells = rows.map((r) => r.Mobile!);
    expect(cells.filter((c) => c.startsWith('(+91) ')).length).toBeGreaterThanOrEqual(10);
    expect(cells.filter((c) => c.startsWith('+91-')).length).toBeGreaterThanOrEqual(5);
    expect(cells.filter((c) => /^0\d{5} \d{5}$/.test(c)).length).toBeGreaterThanOrEqual(5);
    expect(cells.filter((c) => /^0\d\d \d{4} \d{4}$/.test(c)).length).toBeGreaterThanOrEqual(3); // 011 2345 6789
    expect(cells.filter((c) => /^\+91 \d\d \d{4} \d{4}$/.test(c)).length).toBeGreaterThanOrEqual(3); // +91 22 2345 6789
    expect(expected.every((e) => e.startsWith('+91'))).toBe(true);
    expect(new Set(expected).size).toBe(50);
  });

  it('contacts validate: 50 valid', async () => {
    const r = await h.run(['contacts', 'validate', FILE, '--default-country', 'IN', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total_rows: 50, valid: 50, invalid: 0, duplicates: 0 });
  });

  it('campaign create --csv: one campaign, and the sandbox holds exactly the 50 numbers the library reads', async () => {
    const r = await h.run(['campaign', 'create', '--name', 'CRM renewals', '--agent', 'Renewals desk', '--csv', FILE, '--default-country', 'IN', '--json']);
    expect(r.stderr).toContain('50 rows, 50 valid, 0 invalid');
    expect(r.exitCode).toBe(0);
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    const creates = h.sandbox.requests.filter((q) => q.method === 'POST' && q.path.startsWith('/campaigns'));
    expect(creates).toHaveLength(1);
    // What the sandbox stored, as the service lists a campaign's contacts (a plain array).
    const stored = await ok<Array<{ phone_number: string }>>(h.api, 'GET', `/campaigns/${id}/contacts`);
    expect(stored.map((c) => c.phone_number).sort()).toEqual([...expected].sort());
    const sent = (creates[0]!.body as { contacts: Array<{ phone_number: string; name: string; extra: Record<string, string> }> }).contacts;
    expect(sent.map((c) => c.phone_number)).toEqual(expected);
    expect(sent[0]).toEqual({ phone_number: expected[0], name: rows[0]!['Full Name'], extra: { City: rows[0]!.City, 'Lead Source': rows[0]!['Lead Source'] } });
  });

  it('campaign create --contacts FILE.json reads the same cells to the same numbers', async () => {
    const file = join(h.configDir, 'crm.json');
    writeFileSync(file, JSON.stringify(rows.map((r) => ({ phone_number: r.Mobile, name: r['Full Name'] }))));
    const r = await h.run(['campaign', 'create', '--name', 'CRM renewals', '--agent', 'Renewals desk', '--contacts', file, '--default-country', 'IN', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(r.stdout) as { contacts: Array<{ phone_number: string }> };
    expect(body.contacts.map((c) => c.phone_number)).toEqual(expected);
  });
});
