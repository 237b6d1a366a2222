/**
 * `campaign followups` end to end: a campaign run to completion in the sandbox with an
 * agent that schedules callbacks and takes messages, then the follow-ups as JSON, as a
 * workbook (phone numbers text cells, requested times date cells in the reader's zone)
 * and as CSV, each against what GET /calls says.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { finishedCampaign } from '../helpers/finished-campaign.js';
import { requestedTime } from '../../src/reports/requested-time.js';

let h: Harness;
let id = '';
const dir = mkdtempSync(join(tmpdir(), 'voicectl-followups-'));

let calls: any[] = [];
beforeAll(async () => {
  h = await harness({ timeScale: 600, seed: 31 });
  ({ id, calls } = await finishedCampaign(h.sandbox, {
    name: 'Follow-ups', contacts: 80, first: 3000, name_of: (i) => `Contact ${i}`, extra_of: (i) => ({ city: i % 2 ? 'Pune' : 'Delhi', policy: `P-${i}` }),
  }));
}, 90_000);
afterAll(async () => h?.close());

const wanted = (o: string) => ['callback_scheduled', 'message_taken', 'requirements_gathered'].includes(o);

describe('voicectl campaign followups', () => {
  it('--json: a row per callback, message and interested lead, with the callback\'s requested time in the contact\'s zone', async () => {
    const r = await h.run(['campaign', 'followups', id, '--json']);
    expect(r.exitCode).toBe(0);
    const rows = JSON.parse(r.stdout);
    const expected = calls.filter((c) => c.end_time && wanted(c.outcome));
    expect(rows.map((x: any) => x.call_id).sort()).toEqual(expected.map((c) => c.call_id).sort());
    const callbacks = rows.filter((x: any) => x.kind === 'callback');
    expect(callbacks.length).toBeGreaterThan(0);
    for (const row of callbacks) {
      const call = calls.find((c) => c.call_id === row.call_id);
      const at = requestedTime(call.summary, Date.parse(call.end_time), 'Asia/Kolkata').at;
      expect(row.zone).toBe('Asia/Kolkata');
      expect(row.requested_time).not.toBeNull();
      expect(Date.parse(row.requested_time)).toBe(at);
      expect(row.requested_time).toMatch(/\+05:30$/);
    }
    expect(rows.every((x: any) => x.extra.city && x.extra.policy)).toBe(true);
  });

  it('--out FILE.xlsx: phone numbers are text, requested times dates, extra fields columns', async () => {
    const file = join(dir, 'f.xlsx');
    const r = await h.run(['campaign', 'followups', id, '--out', file]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/Wrote \d+ follow-ups to/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const sheet = book.worksheets[0]!;
    const head = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(head).toEqual(['phone', 'name', 'extra.city', 'extra.policy', 'follow-up', 'outcome', 'requested time (UTC)', 'requested (contact\'s clock)', 'requested as', 'how it was read', 'contact zone', 'summary', 'call id', 'call time (UTC)']);
    const callbackRow = Array.from({ length: sheet.rowCount - 1 }, (_, i) => sheet.getRow(i + 2)).find((row) => row.getCell(5).value === 'callback')!;
    expect(typeof callbackRow.getCell(1).value).toBe('string');
    expect(String(callbackRow.getCell(1).value)).toMatch(/^\+9196/);
    // The requested time a date cell in the reader's zone (UTC here, named in the header); the contact's clock beside it, named.
    expect(callbackRow.getCell(7).value).toBeInstanceOf(Date);
    expect(String(callbackRow.getCell(8).value)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} IST$/);
    const call = calls.find((c) => c.call_id === callbackRow.getCell(13).value)!;
    const at = requestedTime(call.summary, Date.parse(call.end_time), 'Asia/Kolkata').at!;
    expect((callbackRow.getCell(7).value as Date).getTime()).toBe(at);
    expect(sheet.rowCount - 1).toBe(calls.filter((c) => c.end_time && wanted(c.outcome)).length);
  });

  it('--out FILE.csv and --outcomes: only those outcomes', async () => {
    const file = join(dir, 'f.csv');
    const r = await h.run(['campaign', 'followups', id, '--out', file, '--outcomes', 'message_taken']);
    expect(r.exitCode).toBe(0);
    const parsed = Papa.parse<Record<string, string>>(readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true });
    expect(parsed.data.length).toBe(calls.filter((c) => c.end_time && c.outcome === 'message_taken').length);
    expect(parsed.data.every((row) => row.outcome === 'message_taken' && row['follow-up'] === 'message')).toBe(true);
  });

  it('a file that is neither .xlsx nor .csv is a usage error', async () => {
    const r = await h.run(['campaign', 'followups', id, '--out', join(dir, 'f.txt')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('.xlsx or a .csv');
  });
});
