import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { readSheet } from 'read-excel-file/node';
import { envFor, fakeServer, makeCall, manyCalls } from './fake-server.js';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const t = scratch('voicectl-export-');
const server = (...args: Parameters<typeof fakeServer>) => t.closing(fakeServer(...args));
const dir = t.dir;

/** The sheet as read-excel-file gives it, each row as header → value. */
async function records(file: string): Promise<Array<Record<string, unknown>>> {
  const [header, ...rows] = await readSheet(file);
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [String(h), r[i]])));
}

describe('call export --format xlsx', () => {
  it('writes phone numbers, ids and extra values as text, times as dates, durations as numbers', async () => {
    const calls = [
      makeCall(0, { call_id: '000123', phone_number: '+919876543210', contact: { name: '=1+1', extra: { customer_id: 7, pin: '0042', nested: { a: 1 }, vip: true } } }),
      makeCall(1, { phone_number: '+14155550100', duration_seconds: 12.5, error: 'busy', has_recording: false }),
    ];
    const s = await server(calls);
    const out = join(dir(), 'calls.xlsx');
    const r = await run(['call', 'export', '--out', out], { env: envFor(s) });
    expect(r.stderr).toContain('Exported 2 calls');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(out).subarray(0, 2).toString()).toBe('PK');

    const rows = await records(out);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(typeof row.phone_number).toBe('string');
      expect(row.phone_number).toMatch(/^\+\d+$/);
      expect(typeof row.call_id).toBe('string');
      expect(row['start_time (UTC)']).toBeInstanceOf(Date);
      expect(row['end_time (UTC)']).toBeInstanceOf(Date);
      expect(typeof row.duration_seconds).toBe('number');
    }
    expect(rows[0]).toMatchObject({
      call_id: '000123', phone_number: '+919876543210', contact_name: '=1+1',
      'extra.customer_id': '7', 'extra.pin': '0042', 'extra.nested': '{"a":1}', 'extra.vip': 'true', has_recording: true,
    });
    expect((rows[0]!['start_time (UTC)'] as Date).toISOString()).toBe(calls[0]!.start_time);
    expect(rows[1]).toMatchObject({ phone_number: '+14155550100', duration_seconds: 12.5, error: 'busy', has_recording: false });
  });

  it('freezes a bold header row and gives times a date-time format', async () => {
    const s = await server(manyCalls(3));
    const out = join(dir(), 'calls.xlsx');
    const r = await run(['call', 'export', '--format', 'xlsx', '--out', out], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out);
    const sheet = book.worksheets[0]!;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const start = headers.indexOf('start_time (UTC)') + 1;
    expect(sheet.getRow(2).getCell(start).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(sheet.getRow(2).getCell(start).value).toBeInstanceOf(Date);
    // Inline strings are never formulas, whatever they start with.
    expect(sheet.getRow(2).getCell(headers.indexOf('phone_number') + 1).type).toBe(ExcelJS.ValueType.String);
  });

  it('shows times in the --tz zone, which the date columns\' headers name; CSV and JSONL stay UTC ISO 8601', async () => {
    const calls = [makeCall(0, { start_time: '2026-11-26T09:30:00.000Z', end_time: '2026-11-26T09:32:05.000Z' })];
    const s = await server(calls);
    const d = dir();
    const r = await run(['call', 'export', '--out', join(d, 'calls.xlsx'), '--tz', 'Asia/Calcutta'], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    const [row] = await records(join(d, 'calls.xlsx'));
    expect(Object.keys(row!)).toEqual(expect.arrayContaining(['start_time (Asia/Kolkata)', 'end_time (Asia/Kolkata)']));
    // A spreadsheet's date has no zone: the cell holds Kolkata's wall time.
    // (Excel keeps a day's fraction in a float: read back, a time is whole to the second.)
    const second = (v: unknown) => new Date(Math.round((v as Date).getTime() / 1000) * 1000).toISOString();
    expect(second(row!['start_time (Asia/Kolkata)'])).toBe('2026-11-26T15:00:00.000Z');
    expect(second(row!['end_time (Asia/Kolkata)'])).toBe('2026-11-26T15:02:05.000Z');

    const utc = await run(['call', 'export', '--format', 'csv'], { env: envFor(s) });
    const zoned = await run(['call', 'export', '--format', 'csv', '--tz', 'Asia/Kolkata'], { env: { ...envFor(s), VOICECTL_TZ: 'America/New_York' } });
    expect(zoned.stdout).toBe(utc.stdout);
    expect(zoned.stdout).toContain('2026-11-26T09:30:00.000Z');
    const jsonl = await run(['call', 'export', '--format', 'jsonl', '--tz', 'Asia/Kolkata'], { env: envFor(s) });
    expect(JSON.parse(jsonl.stdout.trim()).start_time).toBe('2026-11-26T09:30:00.000Z');
  });

  it('puts keys first seen after the first page in extra_json, and adds transcripts', async () => {
    const calls = [...manyCalls(200), makeCall(200, { contact: { name: 'Late', extra: { idx: 200, late_key: 'x' } } })];
    const s = await server(calls);
    const out = join(dir(), 'calls.xlsx');
    const r = await run(['call', 'export', '--out', out, '--transcripts'], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    const rows = await records(out);
    expect(rows).toHaveLength(201);
    expect(rows[200]).toMatchObject({ contact_name: 'Late', 'extra.idx': '200', extra_json: '{"late_key":"x"}' });
    expect(String(rows[0]!.transcript)).toMatch(/^00:00 Agent: /);
  });

  it('cuts a cell at Excel\'s 32,767 characters and says so', async () => {
    const s = await server([makeCall(0, { summary: 'a'.repeat(40_000) })]);
    const out = join(dir(), 'calls.xlsx');
    const r = await run(['call', 'export', '--out', out], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('1 cell was longer than Excel\'s 32,767 characters');
    // Said before the closing line, which ends the output.
    expect(r.stderr.indexOf('longer than Excel')).toBeLessThan(r.stderr.indexOf('Exported 1 call'));
    expect(String((await records(out))[0]!.summary)).toHaveLength(32_767);
  });

  it('writes a workbook with only the header when nothing matches', async () => {
    const s = await server([]);
    const out = join(dir(), 'calls.xlsx');
    const r = await run(['call', 'export', '--out', out], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    const [header, ...rest] = await readSheet(out);
    expect(header).toContain('phone_number');
    expect(rest).toEqual([]);
  });

  it('exports incrementally with --since-last, like CSV', async () => {
    const s = await server(manyCalls(5));
    const d = dir();
    const state = join(d, 'state.json');
    const first = await run(['call', 'export', '--since-last', '--state', state, '--out', join(d, '1.xlsx')], { env: envFor(s) });
    expect(first.exitCode).toBe(0);
    expect(await records(join(d, '1.xlsx'))).toHaveLength(5);
    s.calls.push(...manyCalls(3, 5));
    const second = await run(['call', 'export', '--since-last', '--state', state, '--out', join(d, '2.xlsx')], { env: envFor(s) });
    expect(second.exitCode).toBe(0);
    expect((await records(join(d, '2.xlsx'))).map((row) => row.call_id)).toEqual(manyCalls(3, 5).map((c) => c.call_id));
  });

  it('refuses to write a workbook to a terminal (exit 2), before any request', async () => {
    const s = await server(manyCalls(3));
    const r = await run(['call', 'export', '--format', 'xlsx'], { env: envFor(s), tty: { stdout: true } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--out calls.xlsx');
    expect(s.requests).toHaveLength(0);
  });
});
