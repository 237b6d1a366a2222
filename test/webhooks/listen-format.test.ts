import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { clock, eventLine, forwardLine, rejectLine } from '../../src/webhooks/listen-format.js';
import type { AcceptedEvent } from '../../src/webhooks/receiver.js';

const stripSgr = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const at = new Date('2026-11-26T09:30:05Z');

function accepted(data: Record<string, unknown>, o: { id?: string; type?: string; verified?: boolean } = {}): AcceptedEvent {
  const type = o.type ?? 'call.ended';
  const event = { id: o.id ?? 'evt_1', type, created_at: at.toISOString(), data };
  return { id: event.id, type, event, raw: Buffer.from(JSON.stringify(event)), headers: {}, receivedAt: at, verified: o.verified ?? true };
}

const call = {
  call_id: 'call_8adb5e0f', campaign_id: 'ffc5a1b2-7c1d-4f51-9d51-3c5e1b2a9f00', phone_number: '+919812345678',
  status: 'completed', outcome: 'requirements_gathered_with_a_callback_requested', duration_seconds: 54,
};

describe('listen lines', () => {
  it('say when in the user\'s zone, named', () => {
    expect(clock(at, 'Asia/Kolkata')).toBe('15:00:05 IST');
    expect(clock(at)).toBe('09:30:05 UTC');
    expect(stripSgr(eventLine(new Chalk({ level: 0 }), accepted(call), { zone: 'America/New_York' }))).toMatch(/^04:30:05 EST {2}200 {2}call\.ended/);
    expect(stripSgr(rejectLine(new Chalk({ level: 0 }), { status: 401, reason: 'x', message: 'bad signature', at }, 'Asia/Kolkata'))).toMatch(/^15:00:05 IST {2}401/);
    expect(stripSgr(forwardLine(new Chalk({ level: 0 }), 'evt_1', 'http://127.0.0.1:3000/', { ok: true, status: 200, ms: 3 } as never, at, 'Asia/Kolkata'))).toMatch(/^15:00:05 IST {2}200/);
  });

  it('fit the terminal\'s width, coloured or not: the details are cut with …, the mark of an unverified event kept', () => {
    for (const level of [0, 1] as const) {
      const c = new Chalk({ level });
      const whole = stripSgr(eventLine(c, accepted(call)));
      expect(whole).toContain('+919812345678  completed/requirements_gathered_with_a_callback_requested  54s  call call_8adb5e0f  campaign ffc5a1b2');
      for (const columns of [60, 80, 100]) {
        const line = stripSgr(eventLine(c, accepted(call), { columns }));
        expect(line.length, `${columns}: ${line}`).toBeLessThanOrEqual(columns);
        expect(line).toContain('…');
        // The number first: the ids come last, where a narrow line cuts them.
        expect(line).toMatch(columns >= 80 ? /^09:30:05 UTC {2}200 {2}call\.ended {12}evt_1 {2}\+919812345678 {2}/ : /^09:30:05 UTC {2}200 {2}call\.ended {12}evt_1 {2}\+9198/);
        const unverified = stripSgr(eventLine(c, accepted(call, { verified: false }), { columns }));
        expect(unverified.length).toBeLessThanOrEqual(columns);
        // With no room left for the details, they go, not the mark.
        expect(unverified).toMatch(columns >= 80 ? /… \(unverified\)$/ : /evt_1 \(unverified\)$/);
      }
      expect(stripSgr(eventLine(c, accepted(call), { columns: 200 }))).toBe(whole);
    }
  });

  it('a long event id is cut to its kind and its end before the details are; --json has it whole', () => {
    const id = `evt_${'x'.repeat(100)}12345678`;
    const line = stripSgr(eventLine(new Chalk({ level: 1 }), accepted(call, { id }), { columns: 140 }));
    expect(line.length).toBeLessThanOrEqual(140);
    expect(line).toMatch(/call\.ended {12}evt_…12345678 {2}\+919812345678 {2}completed\/requirements_gathered_with_a_callback_requested {2}54s/);
    // With room, it is whole.
    expect(stripSgr(eventLine(new Chalk({ level: 0 }), accepted(call, { id }), { columns: 400 }))).toContain(id);
  });

  it('a sender\'s type so long the head alone is too wide is cut too', () => {
    const line = eventLine(new Chalk({ level: 1 }), accepted(call, { type: `call.${'x'.repeat(120)}` }), { columns: 80 });
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line.endsWith('…')).toBe(true);
  });
});
