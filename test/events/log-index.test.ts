import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventKey, lineList, readLogs, skippedWarnings } from '../../src/events/log-index.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

let dir: TempDir | undefined;
afterEach(() => dir?.remove());

describe('reading listen logs', () => {
  it('indexes events by type and object, and names torn and foreign lines instead of failing', async () => {
    dir = tempDir();
    const a = join(dir.dir, 'a.jsonl');
    const b = join(dir.dir, 'b.jsonl');
    writeFileSync(a, [
      JSON.stringify({ id: 'evt_1', type: 'call.ended', created_at: '2026-01-01T00:00:00.000Z', data: { call_id: 'c1' } }),
      'GET / HTTP/1.1',
      '',
      JSON.stringify({ hello: 'world' }),
      '[1,2]',
      JSON.stringify({ id: 'evt_2', type: 'campaign.completed', created_at: '2026-01-01T00:00:00.000Z', data: { id: 'k1' } }),
      '{"id":"evt_3","type":"call.recording_ready","data":{"call_id":"c',
    ].join('\n'));
    writeFileSync(b, `\uFEFF${JSON.stringify({ id: 'evt_4', type: 'call.recording_ready', data: { call_id: 'c1' } })}\r\n`);
    const index = await readLogs([a, b]);
    expect(index.events).toBe(3);
    expect([...index.keys].sort()).toEqual([eventKey('call.ended', 'c1'), eventKey('call.recording_ready', 'c1'), eventKey('campaign.completed', 'k1')].sort());
    expect(index.ids).toEqual(new Set(['evt_1', 'evt_2', 'evt_4']));
    // When each happened, by type, for tying delivery records that name no event (evt_4 has no time).
    expect(index.times).toEqual(new Map([['call.ended', [Date.parse('2026-01-01T00:00:00.000Z')]], ['campaign.completed', [Date.parse('2026-01-01T00:00:00.000Z')]]]));
    expect(index.skipped).toEqual([{ file: a, notJson: [2, 7], notEvent: [4, 5] }]);
    const [warning] = skippedWarnings(index);
    expect(warning).toContain('lines 2 and 7 are not JSON');
    expect(warning).toContain('lines 4 and 5 are JSON but not an event');
  });

  it('fails on a missing file unless told a missing file is empty', async () => {
    dir = tempDir();
    await expect(readLogs([join(dir.dir, 'none.jsonl')])).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readLogs([join(dir.dir, 'none.jsonl')], { missingOk: true })).events).toBe(0);
  });

  it('lists many lines briefly', () => {
    expect(lineList([3])).toBe('line 3');
    expect(lineList(Array.from({ length: 14 }, (_, i) => i + 1))).toBe('lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4 more');
  });
});
