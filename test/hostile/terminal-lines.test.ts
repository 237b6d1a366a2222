/**
 * The one escaping function, and the human lines that use it: listen's event lines,
 * watch frames and plain watch lines, table cells. JSON stays exact.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { hasControlCharacters, terminalLine, terminalSafe } from '../../src/text/terminal-text.js';
import { eventLine, eventRecord, forwardLine, rejectLine } from '../../src/webhooks/listen-format.js';
import { buildFrame } from '../../src/watch/frame.js';
import { formatSummary, summarize, Tally } from '../../src/watch/summary.js';
import { truncate } from '../../src/text/text.js';
import type { AcceptedEvent } from '../../src/webhooks/receiver.js';
import { PlainView } from '../../src/watch/view-lines.js';
import { testContext } from '../../src/context-test.js';

const EVIL = '\x1b]0;pwned\x07\x1b[2J';
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** Colour codes are ours: strip them before looking for what came from the data. */
const stripSgr = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('terminalSafe', () => {
  it('shows every C0 and C1 control character and DEL as \\xHH', () => {
    expect(terminalSafe(EVIL)).toBe('\\x1b]0;pwned\\x07\\x1b[2J');
    expect(terminalSafe('a\u009b2Jb\u007fc\u0000d')).toBe('a\\x9b2Jb\\x7fc\\x00d');
    for (let cp = 0; cp < 0xa0; cp++) {
      const ch = String.fromCharCode(cp);
      const control = cp < 0x20 || cp >= 0x7f;
      expect(terminalSafe(ch)).toBe(control ? `\\x${cp.toString(16).padStart(2, '0')}` : ch);
    }
  });

  it('keeps line feeds and tabs in multi-line text, and turns CR LF into LF', () => {
    expect(terminalSafe('one\r\ntwo\tthree\rfour\x1b', { multiline: true })).toBe('one\ntwo\tthree\\x0dfour\\x1b');
    expect(terminalSafe('one\ntwo')).toBe('one\\x0atwo');
  });

  it('leaves other text alone (accents, scripts, emoji) and is idempotent', () => {
    const text = 'Zoë · ग्राहक · 客户 🙂 “quoted” \\x1b';
    expect(terminalSafe(text)).toBe(text);
    expect(terminalSafe(terminalSafe(EVIL))).toBe(terminalSafe(EVIL));
  });

  it('terminalLine makes one line of a cell', () => {
    expect(terminalLine('first\r\n  second\tthird\x07')).toBe('first second third\\x07');
    expect(truncate(`${EVIL}${EVIL}`, 12)).toBe('\\x1b]0;pwne…');
  });

  it('hasControlCharacters ignores layout (TAB, LF, CR)', () => {
    expect(hasControlCharacters('a\tb\r\nc')).toBe(false);
    expect(hasControlCharacters('a\x1bb')).toBe(true);
    expect(hasControlCharacters('a\u0085b')).toBe(true);
  });
});

describe('listen lines', () => {
  const c = new Chalk({ level: 1 });
  const event: AcceptedEvent = {
    id: `evt_1${EVIL}`,
    type: `call.ended\u009b2J`,
    event: { id: 'evt_1', type: 'call.ended', data: { call_id: `call_${EVIL}`, phone_number: '+91\x07', status: 'completed', outcome: `ok${EVIL}` } },
    raw: Buffer.from('{}'),
    headers: {},
    receivedAt: new Date(),
    verified: true,
  };

  it('escape what the sender wrote in the event line', () => {
    const line = stripSgr(eventLine(c, event));
    expect(line).not.toMatch(RAW_CONTROL);
    expect(line).toContain('call_\\x1b]0;pwned\\x07\\x1b[2J');
    expect(line).toContain('call.ended\\x9b2J');
  });

  it('escape rejections and forwards', () => {
    const rejected = stripSgr(rejectLine(c, { status: 400, reason: 'x', message: `bad ${EVIL}`, likely: `\x1b[2J`, id: EVIL, type: 'ping', at: new Date() }));
    expect(rejected.replace(/\n/g, '')).not.toMatch(RAW_CONTROL);
    const forwarded = stripSgr(forwardLine(c, EVIL, 'http://127.0.0.1:3000/', { ok: false, status: 500, body: `oops${EVIL}`, ms: 3 } as never, new Date()));
    expect(forwarded).not.toMatch(RAW_CONTROL);
    expect(forwarded).toContain('oops\\x1b]0;pwned');
  });

  it('keep the NDJSON log exact', () => {
    expect(JSON.parse(JSON.stringify(eventRecord(event))).data.outcome).toBe(`ok${EVIL}`);
  });
});

describe('watch', () => {
  const recent = [{ call_id: 'c1', phone_number: `+91${EVIL}`, status: 'completed', outcome: `won${EVIL}`, duration_seconds: 30, end_time: '2026-01-01T10:00:00Z', summary: `Said ${EVIL} twice` }];
  const snapshot = {
    campaignId: 'camp-1', name: `Spring${EVIL}`, status: `running\u009b2J`, counts: { completed: 1, [`odd${EVIL}`]: 1 },
    total: 2, finished: 1, elapsedMs: 1000, recent,
  };

  it('frames show the campaign and its calls escaped', () => {
    for (const level of [0, 1] as const) {
      const frame = buildFrame(snapshot, { width: 200, height: 40, color: new Chalk({ level }), campaignId: 'camp-1' });
      const text = frame.map((l) => stripSgr(l.text)).join('\n');
      expect(text).not.toMatch(RAW_CONTROL);
      expect(text).toContain('Spring\\x1b]0;pwned');
    }
  });

  it('plain lines (watch off a terminal) are escaped', () => {
    const ctx = testContext();
    const view = new PlainView(ctx);
    view.update({ ...snapshot, notice: `Paused${EVIL}` }, recent);
    view.problem(`poll failed: ${EVIL}`);
    const text = ctx.stdoutText() + ctx.stderrText();
    expect(text).toContain('Said \\x1b]0;pwned');
    expect(text).toContain('progress  running\\x9b2J');
    expect(text).toContain('Paused\\x1b]0;pwned');
    expect(text).not.toMatch(RAW_CONTROL);
  });

  it('the final summary is escaped', () => {
    const tally = new Tally();
    tally.add(recent[0]!);
    const lines = formatSummary(summarize({ id: 'camp-1', name: snapshot.name, status: 'completed', contacts_by_status: snapshot.counts }, tally), new Chalk({ level: 0 }));
    expect(lines.join('\n')).not.toMatch(RAW_CONTROL);
    expect(lines.join('\n')).toContain('won\\x1b]0;pwned');
  });
});
