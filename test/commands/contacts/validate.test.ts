/** `voicectl contacts validate` as a user runs it: the built binary, no terminal. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validateContactsFile } from '../../../src/contacts/index.js';
import { baseEnv, runCli } from '../../helpers/cli.js';
import { writeIn } from '../../helpers/temp.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/contacts/', import.meta.url));
const leads = fileURLToPath(new URL('../../../fixtures/leads.csv', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'voicectl-validate-e2e-'));
const env = baseEnv(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const validate = (args: string[], extraEnv: Record<string, string> = {}) => runCli(['contacts', 'validate', ...args], { ...env, ...extraEnv });
const expected = (name: string) => JSON.parse(readFileSync(`${fixtures}${name}.expected.json`, 'utf8'));

describe('contacts validate', () => {
  it('prints a summary and a table of problems, exit 2', async () => {
    const r = await validate([fixtures + 'phone-reasons.csv', '--default-country', 'IN']);
    expect(r.exitCode).toBe(2);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`✗ ${fixtures}phone-reasons.csv: 13 rows, 1 valid, 12 invalid, 0 duplicates (phone column "phone", name column "name")`);
    expect(r.stdout).toMatch(/^ROW\s+COLUMN\s+VALUE\s+REASON$/m);
    expect(r.stdout).toMatch(/^7\s+phone\s+9\.19876E\+11\s+Excel turned this number into scientific notation/m);
    expect(r.stdout).toMatch(/^4\s+phone\s+98765\s+too short for India \(\+91\)/m);
    expect(r.stderr).toBe('');
  });

  it('a clean file: exit 0, one line', async () => {
    const r = await validate([leads, '--default-country', 'IN']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(`✓ ${leads}: 25 rows, 25 valid, 0 invalid, 0 duplicates (phone column "phone", name column "name")`);
  });

  it('shows the first 20 problems and says how to get the rest', async () => {
    const file = join(dir, 'many-bad.csv');
    writeFileSync(file, `name,phone\n${Array.from({ length: 25 }, (_, i) => `P${i},${10000 + i}`).join('\n')}\n`);
    const r = await validate([file, '--default-country', 'IN']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toMatch(/^21\s+phone\s+10019\s/m);
    expect(r.stdout).not.toMatch(/^22\s+phone/m);
    expect(r.stdout).toContain('… and 5 more problems. Pass --errors-out bad-rows.csv');
  });

  it('lists duplicates with both rows', async () => {
    const r = await validate([fixtures + 'duplicates.csv', '--default-country', 'IN']);
    expect(r.stdout).toContain('Duplicates (dropped): row 3 repeats row 2 (+919876543210); row 5 repeats row 2 (+919876543210); row 6 repeats row 4 (+919988776655).');
  });

  it('--json prints the report object of CLI.md', async () => {
    const r = await validate([fixtures + 'embedded-newlines.csv', '--default-country', 'IN', '--json']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual(expected('embedded-newlines').report);
    const ok = await validate([fixtures + 'indian-formats.csv', '--json', '--default-country', 'in']);
    expect(ok.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ total_rows: 12, valid: 12, invalid: 0, duplicates: 0, errors: [] });
  });

  it('--phone-column and --name-column', async () => {
    const r = await validate([fixtures + 'custom-columns.csv', '--json', '--default-country', 'IN', '--phone-column', 'Primary Contact No', '--name-column', 'Client']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected('custom-columns').report);
  });

  it('--errors-out writes every bad row with an error column', async () => {
    const out = join(dir, 'bad-rows.csv');
    const r = await validate([fixtures + 'duplicates.csv', '--default-country', 'IN', '--errors-out', out]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Wrote 1 bad row to ${out}`);
    expect(readFileSync(out, 'utf8')).toBe('\uFEFFname,phone,error\r\nInvalid Not Counted,12345,row 7: too short for India (+91): 5 digits after the country code\r\n');
  });

  it('the default country comes from the profile or VOICECTL_DEFAULT_COUNTRY; the flag wins', async () => {
    const without = await validate([fixtures + 'missing-country.csv', '--json']);
    expect(JSON.parse(without.stdout).invalid).toBe(2);
    const profileDir = mkdtempSync(join(dir, 'profile-'));
    writeFileSync(join(profileDir, 'config.json'), JSON.stringify({ profiles: { default: { default_country: 'IN' } } }));
    const fromProfile = await runCli(['contacts', 'validate', fixtures + 'missing-country.csv', '--json'], { ...baseEnv(profileDir) });
    expect(fromProfile.exitCode).toBe(0);
    const fromEnv = await validate([fixtures + 'missing-country.csv', '--json'], { VOICECTL_DEFAULT_COUNTRY: 'IN' });
    expect(fromEnv.exitCode).toBe(0);
    const flagWins = await validate([fixtures + 'missing-country.csv', '--json', '--default-country', 'US'], { VOICECTL_DEFAULT_COUNTRY: 'IN' });
    expect(JSON.parse(flagWins.stdout).invalid).toBeGreaterThan(0);
  });

  it.each([
    ['empty.csv'], ['header-only.csv'], ['no-phone-column.csv'], ['unbalanced-quote.csv'], ['binary.csv'], ['windows-1252.csv'], ['old-excel.xls'],
  ])('%s: exit 2, one readable message on stderr, nothing on stdout', async (name) => {
    const message = expected(name.replace(/\.[^.]+$/, '')).error;
    const r = await validate([fixtures + name, '--default-country', 'IN']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(`error: ${message}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Under --json the same error is one JSON object on stderr, for programs.
    const j = await validate([fixtures + name, '--default-country', 'IN', '--json']);
    expect(j.exitCode).toBe(2);
    expect(j.stdout).toBe('');
    const lines = j.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ error: message, exit_code: 2, retryable: false });
  });

  it('a missing file, a directory, a bad --default-country: exit 2', async () => {
    const missing = await validate([join(dir, 'nope.csv')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`File not found: ${join(dir, 'nope.csv')}`);
    const folder = await validate([dir]);
    expect(folder.exitCode).toBe(2);
    expect(folder.stderr).toContain('is a directory, not a contacts file.');
    const country = await validate([leads, '--default-country', 'India']);
    expect(country.exitCode).toBe(2);
    expect(country.stderr).toMatch(/two-letter country code/);
  });

  it('a file over 4 MB, read in the engine worker with helpers, gives the same report as one thread', async () => {
    // Few distinct numbers, so the single-thread comparison is quick (results are cached per cell text).
    const file = join(dir, 'engine.csv');
    const distinct = Array.from({ length: 400 }, (_, i) => (i % 50 === 7 ? `98${i}` : i % 2 ? `+91 98${String(100000 + i * 37).slice(-6)} ${String(1000 + i).slice(-2)}` : `0${80}${String(22220000 + i * 7)}`));
    const lines = ['name,phone,city,notes'];
    for (let i = 0; i < 120_000; i++) lines.push(`Person ${i},${distinct[(i * 7) % distinct.length]},${i % 2 ? 'Pune' : '"Mumbai, MH"'},${i % 5000 === 3 ? '"two\nlines"' : 'x'}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(readFileSync(file).length).toBeGreaterThan(4 * 1024 * 1024);
    const r = await validate([file, '--json', '--default-country', 'IN']);
    const inline = await validateContactsFile(file, { defaultCountry: 'IN', workers: 0, collectContacts: false });
    // The invalid rows make it exit 2, with one JSON error on stderr (the report is on stdout).
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'invalid_rows', exit_code: 2 });
    expect(JSON.parse(r.stdout)).toEqual(inline.report);
    expect(inline.report.invalid).toBeGreaterThan(0);
    expect(inline.report.duplicates).toBeGreaterThan(100_000);
  });

  it('a large file where every row is bad still gets a complete report', async () => {
    // 130,000 errors outgrow the engine worker's bounded heap: the file is then checked without the bound.
    const file = join(dir, 'all-bad.csv');
    const lines = ['name,phone,city,notes'];
    for (let i = 0; i < 130_000; i++) lines.push(`Person ${i},98${10_000_000 + i},Pune,some notes here`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await validate([file, '--json']);
    expect(r.exitCode).toBe(2);
    const report = JSON.parse(r.stdout);
    expect([report.total_rows, report.valid, report.invalid, report.errors.length]).toEqual([130_000, 0, 130_000, 130_000]);
    expect(report.errors[129_999]).toMatchObject({ row: 130_001, value: '9810129999' });
  });

  it('a large file, checked with a helper thread, gives the same report as one thread', async () => {
    const file = join(dir, 'large.csv');
    let text = 'name,phone,city,customer_id\n';
    for (let i = 0; i < 30_000; i++) {
      const n = String((i * 7919) % 100_000_000).padStart(8, '0');
      const phone = i % 500 === 7 ? n.slice(0, 5) : i % 3 === 0 ? `+91 98${n.slice(0, 3)} ${n.slice(3)}` : `0${i % 2 ? '98' : '80'}${n}`;
      text += `Person ${i},${phone},${i % 2 ? 'Pune' : '"Mumbai, MH"'},${String(i).padStart(7, '0')}\n`;
    }
    writeFileSync(file, text);
    expect(text.length).toBeGreaterThan(1024 * 1024); // large enough for the worker pool
    const r = await validate([file, '--json', '--default-country', 'IN']);
    const inline = await validateContactsFile(file, { defaultCountry: 'IN', workers: 0, collectContacts: false });
    expect(JSON.parse(r.stdout)).toEqual(inline.report);
    expect(inline.report.invalid).toBeGreaterThan(0);
    expect(r.exitCode).toBe(2);
  });

  const COLUMNS = [
    { header: 'Customer Name,Mobile', row: 'Asha Rao,98765 43210', says: '(phone column "Mobile", name column "Customer Name")' },
    { header: 'First Name,Last Name,Phone', row: 'Asha,Rao,98765 43210', says: '(phone column "Phone", names from "First Name" + "Last Name")' },
    { header: 'Phone,City', row: '98765 43210,Pune', says: '(phone column "Phone"; no name column found, so contacts are sent without names: --name-column "<header>" names one)' },
  ];
  it.each(COLUMNS)('says which columns it used: $header', async ({ header, row, says }) => {
    const file = writeIn(dir, 'crm.csv', `${header}\n${row}\n`);
    const r = await validate([file, '--default-country', 'IN']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(`✓ ${file}: 1 row, 1 valid, 0 invalid, 0 duplicates ${says}`);
  });
});
