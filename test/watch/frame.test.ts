import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { buildFrame, textWidth } from '../../src/watch/frame.js';
import type { Snapshot } from '../../src/watch/view.js';
import { stripAnsi } from '../helpers/screen.js';

const recent = Array.from({ length: 12 }, (_, i) => ({
  call_id: `c${i}`,
  phone_number: `+9198700000${String(i).padStart(2, '0')}`,
  status: i % 3 === 0 ? 'no_answer' : 'completed',
  outcome: i % 3 === 0 ? null : 'requirements_gathered',
  end_reason: i % 3 === 0 ? 'no_answer' : 'completed',
  duration_seconds: 30 + i * 10,
  end_time: `2025-03-01T10:${String(10 + i).padStart(2, '0')}:00Z`,
  summary: i === 1 ? 'ग्राहक ने अगले हफ़्ते कॉल करने को कहा — 客户要求下周回电 🙂 and more words after that' : `Summary of call ${i}, long enough to be cut on a narrow terminal.`,
}));

const snapshot: Snapshot = {
  campaignId: 'camp-1',
  name: 'Spring renewals',
  status: 'running',
  counts: { pending: 10, initiated: 20, completed: 50, no_answer: 15, failed: 5 },
  total: 100,
  finished: 70,
  callsPerMinute: 12.5,
  etaSeconds: 144,
  elapsedMs: 65_000,
  recent,
};

describe('buildFrame', () => {
  for (const color of [0, 1] as const) {
    for (const width of [30, 60, 100, 160]) {
      it(`fits every line in ${width} columns (colour ${color})`, () => {
        const frame = buildFrame(snapshot, { width, height: 40, color: new Chalk({ level: color }), campaignId: 'camp-1' });
        for (const line of frame) {
          expect(line.width).toBeLessThanOrEqual(width - 1);
          expect(textWidth(stripAnsi(line.text))).toBe(line.width);
        }
      });
    }
  }

  it('shows the header, bar, legend, rate and the newest calls first', () => {
    const text = buildFrame(snapshot, { width: 120, height: 40, color: new Chalk({ level: 0 }), campaignId: 'camp-1' }).map((l) => l.text);
    expect(text[0]).toBe('Campaign Spring renewals  running  elapsed 1m 05s');
    expect(text[1]).toMatch(/^█+▓+▒+░+·+ {2}70% {2}70\/100 finished$/);
    expect(text[1]!.split(' ')[0]).toHaveLength(50);
    expect(text[2]).toBe('█ completed 50  ▓ no_answer 15  ▒ failed 5  ░ initiated 20  · pending 10');
    expect(text[3]).toBe('12.5 calls/min · about 2m 24s left');
    expect(text[5]).toBe('Latest finished calls (times UTC)');
    expect(text[6]).toMatch(/^\d\d:\d\d:\d\d {2}\+919870000011 {2}requirements_gathered {3}2m 20s {2}Summary of call 11/);
    expect(text).toHaveLength(6 + 10);
  });

  it('leaves the summary out where it would be cut to nothing, and fits the rows it has', () => {
    const frame = buildFrame(snapshot, { width: 60, height: 12, color: new Chalk({ level: 0 }), campaignId: 'camp-1' });
    expect(frame).toHaveLength(11);
    expect(frame[6]!.text).toMatch(/^\d\d:\d\d:\d\d {2}\+919870000011 {2}requirements_gathered {3}2m 20s$/);
  });

  it('before the first poll, and for a draft, says what it is waiting for', () => {
    const c = new Chalk({ level: 0 });
    expect(buildFrame(undefined, { width: 80, height: 24, color: c, campaignId: 'camp-1', problem: 'poll failed: boom' }).map((l) => l.text))
      .toEqual(['Watching campaign camp-1  waiting for the first poll…', '⚠ poll failed: boom']);
    const draft = buildFrame({ ...snapshot, status: 'draft', recent: [] }, { width: 80, height: 24, color: c, campaignId: 'camp-1' }).map((l) => l.text);
    expect(draft).toContain('  voicectl campaign launch camp-1');
    expect(draft.at(-1)).toBe('No finished calls yet.');
  });
});
