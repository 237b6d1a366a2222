/**
 * Workbooks as people save them: several sheets, the contacts not on the first.
 * --sheet NAME|N picks one; without it, a first sheet with no phone column is an error
 * that names the sheets that have one.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('voicectl-sheets-');
afterAll(() => tmp.remove());
const AGENT = '00000000-0000-4000-8000-000000000000';
const OFFLINE = { env: { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'sk_x' } };

async function book(name: string, sheets: Record<string, string[][]>): Promise<string> {
  const wb = new ExcelJS.Workbook();
  for (const [title, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(title);
    for (const r of rows) ws.addRow(r);
  }
  const path = join(tmp.dir, name);
  await wb.xlsx.writeFile(path);
  return path;
}

const SUMMARY = [['Region', 'Leads'], ['West', '2']];
const LEADS = [['Customer Name', 'Mobile'], ['Asha Rao', '98765 43210'], ['Ravi Iyer', '+91 99887 76655']];
const OLD = [['Lead Name', 'WhatsApp'], ['Old Lead', '98100 12345']];

describe('--sheet', () => {
  it('without it, a first sheet with no phone column names the sheets that have one (exit 2)', async () => {
    const path = await book('crm.xlsx', { Summary: SUMMARY, Leads: LEADS, 'Old leads': OLD });
    const r = await run(['contacts', 'validate', path, '--default-country', 'IN']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: crm.xlsx has no phone column. Headers found: "Region", "Leads". That is sheet "Summary", the first of 3; the sheets with one are "Leads" (phone column "Mobile"), "Old leads" (phone column "WhatsApp").');
    expect(r.stderr).toContain('Pass --sheet Leads to read it.');
  });

  it('reads the sheet named, or numbered from 1, and says which columns it used', async () => {
    const path = await book('crm.xlsx', { Summary: SUMMARY, Leads: LEADS, 'Old leads': OLD });
    for (const sheet of ['Leads', 'leads', '2']) {
      const r = await run(['contacts', 'validate', path, '--default-country', 'IN', '--sheet', sheet]);
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe(`✓ ${path}: 2 rows, 2 valid, 0 invalid, 0 duplicates (phone column "Mobile", name column "Customer Name")`);
      expect(r.exitCode).toBe(0);
    }
    const old = await run(['contacts', 'validate', path, '--default-country', 'IN', '--sheet', 'Old leads', '--json']);
    expect(JSON.parse(old.stdout)).toMatchObject({ total_rows: 1, valid: 1 });
  });

  it('campaign create --csv takes --sheet too, and sends that sheet\'s contacts', async () => {
    const path = await book('crm.xlsx', { Summary: SUMMARY, Leads: LEADS });
    const r = await run(['campaign', 'create', '--name', 'X', '--agent', AGENT, '--csv', path, '--sheet', 'Leads', '--default-country', 'IN', '--dry-run'], OFFLINE);
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(r.stdout) as { contacts: Array<{ phone_number: string; name: string }> };
    expect(body.contacts).toEqual([{ phone_number: '+919876543210', name: 'Asha Rao' }, { phone_number: '+919988776655', name: 'Ravi Iyer' }]);
  });

  it('a sheet that does not exist lists the sheets; --sheet on a CSV is an error (exit 2)', async () => {
    const path = await book('crm.xlsx', { Summary: SUMMARY, Leads: LEADS });
    const missing = await run(['contacts', 'validate', path, '--sheet', 'Contacts']);
    expect(missing.stderr).toContain('error: crm.xlsx has no sheet "Contacts" (from --sheet). Its sheets: "Summary" (1), "Leads" (2).');
    expect(missing.exitCode).toBe(2);
    const number = await run(['contacts', 'validate', path, '--sheet', '3']);
    expect(number.stderr).toContain('error: crm.xlsx has no sheet number 3 (it has 2) (from --sheet).');
    const csv = join(tmp.dir, 'leads.csv');
    (await import('node:fs')).writeFileSync(csv, 'name,phone\nAsha,+919876543210\n');
    const r = await run(['contacts', 'validate', csv, '--sheet', '1']);
    expect(r.stderr).toContain('--sheet applies to .xlsx workbooks, and leads.csv is a text (CSV) file');
    expect(r.exitCode).toBe(2);
  });
});
