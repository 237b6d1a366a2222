/**
 * The row's country wherever numbers are read, not only in a spreadsheet's country column:
 * a JSON contact's `country` field (the same values as the column), and an --exclude list
 * with a country column; a plain list (one number a line) is read with the default country.
 */
import { parsePhoneNumberWithError } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const { file } = scratch('voicectl-country-sources-');
/** No service at this address: exit 0 from a dry run with the agent's id proves nothing was asked. */
const NOWHERE = { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'sk_x' };
const AGENT = '00000000-0000-4000-8000-000000000000';
const create = (...args: string[]) => run(['campaign', 'create', '--name', 'X', '--agent', AGENT, '--default-country', 'IN', '--dry-run', '--json', ...args], { env: NOWHERE });
const library = (cell: string, country: string) => parsePhoneNumberWithError(cell, country as never).number;

describe('a JSON contact\'s country', () => {
  const items = [
    { phone_number: '(646) 555-0143', name: 'John', country: 'US' },
    { phone_number: '07911 123456', name: 'Mary', country: 'United Kingdom', extra: { plan: 'Gold' } },
    { phone_number: '050 123 4567', name: 'Omar', country: '+971' },
    { phone_number: '98765 43210', name: 'Asha' },
    { phone_number: '98765 43211', name: 'Ravi', country: 91 },
  ];

  it('reads each item\'s number with its country (the library\'s E.164), the rest with the default; the country stays in extra', async () => {
    const r = await create('--contacts', file('items.json', JSON.stringify(items)));
    expect(r.exitCode, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.contacts.map((c: { phone_number: string }) => c.phone_number)).toEqual([
      library('(646) 555-0143', 'US'), library('07911 123456', 'GB'), library('050 123 4567', 'AE'), library('98765 43210', 'IN'), library('98765 43211', 'IN'),
    ]);
    expect(body.contacts[0].extra).toEqual({ country: 'US' });
    expect(body.contacts[1].extra).toEqual({ plan: 'Gold', country: 'United Kingdom' });
    expect(body.contacts[3].extra).toBeUndefined();
  });

  it('without a country, a North American number under IN is refused with its item; an unreadable country is an error naming it', async () => {
    const bad = [...items, { phone_number: '(646) 555-0199', name: 'Jane' }, { phone_number: '98765 43212', name: 'Bob', country: 'Atlantis' }, { phone_number: '98765 43213', country: { code: 'IN' } }];
    const r = await create('--contacts', file('bad.json', JSON.stringify(bad)));
    expect(r.exitCode).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([[6, 'phone_number'], [7, 'country'], [8, 'country']]);
    expect(report.errors[0].message).toContain('looks like a US/Canada number');
    expect(report.errors[1].message).toContain('country "Atlantis" is not one voicectl can read');
    // --skip-invalid sends the others.
    const skip = await create('--contacts', file('bad.json', JSON.stringify(bad)), '--skip-invalid');
    expect(skip.exitCode, skip.stderr).toBe(0);
    expect(JSON.parse(skip.stdout).contacts).toHaveLength(5);
    expect(skip.stderr).toContain('skipping 3 invalid items of bad.json (--skip-invalid):');
  });
});

describe('exclude lists and the row\'s country', () => {
  const contacts = () => file('leads.csv', 'Name,Phone,Country\nJohn,(646) 555-0143,US\nAsha,98765 43210,\nMary,07911 123456,UK\n');
  const excludedPhones = (stdout: string) => (JSON.parse(stdout).excluded as Array<{ phone_number: string }>).map((e) => e.phone_number).sort();

  it('a list with a country column reads each number with its row\'s country', async () => {
    const list = file('dnc.csv', 'Phone,Country\n(646) 555-0143,US\n07911 123456,GB\n');
    const r = await create('--csv', contacts(), '--exclude', list);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(excludedPhones(r.stdout)).toEqual([library('(646) 555-0143', 'US'), library('07911 123456', 'GB')].sort());
  });

  it('a plain list, one number a line, is read with the default country, and refuses a North American number written without +1', async () => {
    const list = file('dnc.txt', '098765 43210\n(646) 555-0143\n');
    const r = await create('--csv', contacts(), '--exclude', list);
    expect(r.exitCode, r.stderr).toBe(0);
    // Only the Indian number matches: the US one cannot be read under IN, so it excludes no one (and is not read as an Indian number).
    expect(excludedPhones(r.stdout)).toEqual([library('98765 43210', 'IN')]);
    const us = await create('--csv', contacts(), '--exclude', file('dnc-us.txt', '+1 646 555 0143\n'));
    expect(excludedPhones(us.stdout)).toEqual([library('(646) 555-0143', 'US')]);
  });
});
