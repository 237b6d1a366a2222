import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnsFor, encodeParquet, RowBatch, SCHEMA_NAME, startOf, utcDay } from '../../src/export/parquet.js';
import { lockFolder, partitionOf, readFolderIds } from '../../src/export/folder.js';
import { IdSet } from '../../src/export/id-set.js';
import { UsageError } from '../../src/errors.js';
import { fileMetadata, readFolder } from '../helpers/parquet-reader.js';
import { tempDirs } from '../helpers/temp.js';
import type { Call } from '../../src/api/calls.js';

const dir = tempDirs('voicectl-parquet-unit-');

/** Writes the calls as the export does, one file per UTC day, and reads them back with DuckDB. */
async function roundTrip(calls: Call[], transcripts = false) {
  const d = dir();
  const batches = new Map<string, RowBatch>();
  for (const c of calls) {
    const start = startOf(c);
    const p = partitionOf(utcDay(start));
    if (!batches.has(p)) batches.set(p, new RowBatch(columnsFor(transcripts)));
    batches.get(p)!.add(c, start);
  }
  for (const [p, b] of batches) {
    mkdirSync(join(d, p), { recursive: true });
    writeFileSync(join(d, p, 'part-1.parquet'), await encodeParquet(b));
  }
  return { dir: d, ...(await readFolder(d)) };
}

describe('a call as a Parquet row', () => {
  it('partitions by the UTC day of the start, whatever offset the service wrote it with', async () => {
    expect(utcDay(Date.parse('2026-11-28T02:00:00+05:30'))).toBe('2026-11-27');
    expect(utcDay(Date.parse('2026-11-27T23:30:00-05:00'))).toBe('2026-11-28');
    expect(utcDay(NaN)).toBeNull();
    const back = await roundTrip([
      { call_id: 'a', start_time: '2026-11-28T02:00:00+05:30', end_time: '2026-11-28T02:01:30+05:30' },
      { call_id: 'b', start_time: '2026-11-27T23:30:00.250-05:00' },
      { call_id: 'c' },
    ]);
    const byId = Object.fromEntries(back.rows.map((r) => [r.call_id, r]));
    expect(String(byId.a!.filename)).toContain('/date=2026-11-27/');
    expect((byId.a!.start_time as Date).toISOString()).toBe('2026-11-27T20:30:00.000Z');
    expect((byId.a!.end_time as Date).toISOString()).toBe('2026-11-27T20:31:30.000Z');
    expect((byId.b!.start_time as Date).toISOString()).toBe('2026-11-28T04:30:00.250Z');
    expect(String(byId.b!.filename)).toContain('/date=2026-11-28/');
    expect(String(byId.c!.filename)).toContain('/date=__HIVE_DEFAULT_PARTITION__/');
    expect(byId.c!.start_time).toBeNull();
  });

  it('keeps every value a service may send: text as text, whole seconds, JSON as JSON text, unknown fields too', async () => {
    const back = await roundTrip([
      {
        call_id: 'x1', start_time: '2026-11-01T10:00:00Z', phone_number: '+919812345678', outcome: '', duration_seconds: 12.6,
        status: 'completed', has_recording: true, contact: { name: 'सुनीता देवी', extra: ['a', { b: 1 }] }, sentiment: 'positive', score: 0.9,
        transcript: [{ role: 'agent', text: 'नमस्ते, main Asha bol rahi hoon', timestamp: 0 }],
      } as Call,
      { call_id: 'x2', start_time: '2026-11-01T11:00:00Z', duration_seconds: '7' as unknown as number, outcome: 'interested', contact: { name: 'Ravi', extra: 'plain text' }, has_recording: false },
      { call_id: 'x3', start_time: '2026-11-01T12:00:00Z', duration_seconds: null, outcome: null, contact: null },
    ], true);
    const byId = Object.fromEntries(back.rows.map((r) => [r.call_id, r]));
    expect(byId.x1).toMatchObject({ phone_number: '+919812345678', outcome: null, duration_seconds: 13, has_recording: true, contact_name: 'सुनीता देवी' });
    expect(JSON.parse(byId.x1!.extra as string)).toEqual(['a', { b: 1 }]);
    expect(JSON.parse(byId.x1!.other_fields as string)).toEqual({ sentiment: 'positive', score: 0.9 });
    expect(JSON.parse(byId.x1!.transcript as string)).toEqual([{ role: 'agent', text: 'नमस्ते, main Asha bol rahi hoon', timestamp: 0 }]);
    expect(byId.x2).toMatchObject({ duration_seconds: 7, outcome: 'interested', extra: '"plain text"', other_fields: null, transcript: null });
    expect(byId.x3).toMatchObject({ duration_seconds: null, outcome: null, contact_name: null, extra: null });
    expect(back.types).toMatchObject({ duration_seconds: 'INTEGER', start_time: 'TIMESTAMP WITH TIME ZONE', has_recording: 'BOOLEAN', transcript: 'VARCHAR' });
    // Rows in start order within a file.
    expect(back.rows.map((r) => r.call_id)).toEqual(['x1', 'x2', 'x3']);
    expect(await fileMetadata(join(back.dir, 'date=2026-11-01', 'part-1.parquet'))).toMatchObject({ 'voicectl.schema': SCHEMA_NAME });
  });
});

describe('the folder', () => {
  it('reads back the call_ids its files hold', async () => {
    const back = await roundTrip([{ call_id: 'r1', start_time: '2026-11-01T10:00:00Z' }, { call_id: 'r2', start_time: '2026-11-02T10:00:00Z' }]);
    const ids = new IdSet();
    expect(await readFolderIds(back.dir, ids)).toEqual({ files: 2, rows: 2 });
    expect(ids.add('r1')).toBe(false);
    expect(ids.add('r3')).toBe(true);
  });

  it('lets one export at a time write into it, and takes over the lock of one that was killed', async () => {
    const d = dir();
    const lock = await lockFolder(d);
    await expect(lockFolder(d)).rejects.toThrow(UsageError);
    await lock.release();
    // A lock whose process no longer runs (a pid far above any this machine gives out).
    const { hostname } = await import('node:os');
    writeFileSync(join(d, '.voicectl-export.lock'), JSON.stringify({ pid: 2 ** 30, host: hostname() }));
    const taken = await lockFolder(d);
    await taken.release();
  });
});
