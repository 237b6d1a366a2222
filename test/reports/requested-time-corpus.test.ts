/**
 * The corpus of callback phrasings (test/fixtures/requested-times.txt): agents' summaries and
 * customers' turns in English, Hinglish and Devanagari, each with the time it asks for, read
 * in the zone of the contact's number from the end of the call. None may be read wrong; a
 * phrase that says a day or a time is never left unread. The share left unread is printed,
 * and, for the English lines, what chrono-node and voicectl's own patterns each read alone.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { zonesForNumber } from '../../src/hours/phone-zones.js';
import { requestedTime, type EnglishReader } from '../../src/reports/requested-time.js';
import { formatDateTime, offsetText } from '../../src/util/time.js';

const CALLS: Record<string, { end: string; phone: string }> = {
  IN: { end: '2026-11-26T05:30:00Z', phone: '+919876543210' },
  INE: { end: '2026-11-26T14:00:00Z', phone: '+919876543210' },
  NY: { end: '2026-11-26T15:00:00Z', phone: '+12125550123' },
  NYS: { end: '2026-03-07T15:00:00Z', phone: '+12125550123' },
  NYF: { end: '2026-10-31T14:00:00Z', phone: '+12125550123' },
};

interface Line { lang: string; call: string; expected: string; text: string; line: number }

const lines: Line[] = readFileSync(new URL('../fixtures/requested-times.txt', import.meta.url), 'utf8')
  .split('\n')
  .map((l, i) => [l, i + 1] as const)
  .filter(([l]) => l.trim() !== '' && !l.startsWith('#'))
  .map(([l, line]) => {
    const [lang, call, expected, ...text] = l.split(' | ');
    return { lang: lang!.trim(), call: call!.trim(), expected: expected!.trim(), text: text.join(' | '), line };
  });

function zoneOf(call: string): string {
  const zones = zonesForNumber(CALLS[call]!.phone);
  expect(zones).toHaveLength(1);
  return zones[0]!;
}

/** What the reader made of a line, written as the corpus writes it. */
function reading(l: Line, english?: EnglishReader): string {
  const zone = zoneOf(l.call);
  const r = requestedTime(l.text, Date.parse(CALLS[l.call]!.end), zone, english ? { english } : {});
  if (r.kind === 'none') return 'unread';
  if (r.kind === 'conflict') return 'person';
  return `${r.kind === 'day' ? '~' : ''}${formatDateTime(r.at!, zone, { minutes: true })}`;
}

describe('the corpus of callback phrasings', () => {
  it('holds at least 300 phrasings in the three scripts, the issue\'s examples among them', () => {
    expect(lines.length).toBeGreaterThanOrEqual(300);
    for (const lang of ['en', 'hi-Latn', 'hi-Deva']) expect(lines.filter((l) => l.lang === lang).length).toBeGreaterThanOrEqual(60);
    for (const l of lines) {
      expect(CALLS[l.call], `line ${l.line}`).toBeDefined();
      expect(l.expected, `line ${l.line}`).toMatch(/^(~?\d{4}-\d{2}-\d{2} \d{2}:\d{2}|unread|person)$/);
    }
    const texts = new Set(lines.map((l) => l.text));
    for (const example of ['Call back in two days at 11 am.', 'Customer prefers tomorrow evening at 7.', 'Kal shaam saadhe 4 baje call karna.',
      'कल शाम ५ बजे कॉल कीजिए।', 'परसों सुबह 10 बजे बात करेंगे।', 'आज शाम 7 बजे कॉल करें।', 'शनिवार सुबह फ़ोन करना।']) {
      expect(texts.has(example), example).toBe(true);
    }
  });

  it('reads every phrasing as the customer meant: none wrong, none that says a day or a time unread', () => {
    const wrong = lines.map((l) => ({ l, got: reading(l) })).filter(({ l, got }) => got !== l.expected);
    const unread = lines.filter((l) => l.expected === 'unread').length;
    const person = lines.filter((l) => l.expected === 'person').length;
    const byLang = ['en', 'hi-Latn', 'hi-Deva'].map((lang) => {
      const of = lines.filter((l) => l.lang === lang);
      return `${lang} ${of.filter((l) => l.expected === 'unread').length}/${of.length}`;
    });
    console.log(`requested times: ${lines.length} phrasings, ${unread} unread (${((100 * unread) / lines.length).toFixed(1)}%: they say neither a day nor a time; ${byLang.join(', ')}), ${person} left to a person (two times said), ${wrong.length} read wrong`);
    expect(wrong.map(({ l, got }) => `line ${l.line} [${l.call}] ${JSON.stringify(l.text)}: expected ${l.expected}, read ${got}`)).toEqual([]);
  });

  it('measures chrono-node and voicectl\'s own patterns on the English lines, each alone', () => {
    const english = lines.filter((l) => l.lang === 'en');
    const tally = (reader: EnglishReader) => {
      const t = { right: 0, wrong: 0, unread: 0 };
      for (const l of english) {
        const got = reading(l, reader);
        if (got === l.expected) t.right++;
        else if (got === 'unread') t.unread++;
        else t.wrong++;
      }
      return t;
    };
    const chrono = tally('chrono');
    const own = tally('own');
    const line = (name: string, t: { right: number; wrong: number; unread: number }) => `${name}: ${t.right} right, ${t.wrong} wrong or sent to a person, ${t.unread} unread`;
    console.log(`English lines (${english.length}), each reader alone: ${line('chrono-node', chrono)}; ${line('own patterns', own)}`);
    // Both readers are real: each reads most of the English on its own.
    expect(chrono.right).toBeGreaterThan(english.length / 2);
    expect(own.right).toBeGreaterThan(english.length / 2);
  });

  it('turns a New York wall time into the instant its clocks will show, across both changes of clocks', () => {
    const ny = 'America/New_York';
    // Saturday 7 March 10:00 EST; on Sunday the clocks go forward: 4 pm is EDT, 20:00 UTC.
    const spring = requestedTime('Call me tomorrow at 4 pm.', Date.parse(CALLS.NYS!.end), ny);
    expect(new Date(spring.at!).toISOString()).toBe('2026-03-08T20:00:00.000Z');
    expect(offsetText(ny, spring.at!)).toBe('-04:00');
    // In Hindi too, and a day only.
    expect(new Date(requestedTime('kal shaam 5 baje', Date.parse(CALLS.NYS!.end), ny).at!).toISOString()).toBe('2026-03-08T21:00:00.000Z');
    // Saturday 31 October 10:00 EDT; on Sunday they go back: 10 am is EST, 15:00 UTC.
    const fall = requestedTime('tomorrow at 10 am', Date.parse(CALLS.NYF!.end), ny);
    expect(new Date(fall.at!).toISOString()).toBe('2026-11-01T15:00:00.000Z');
    expect(offsetText(ny, fall.at!)).toBe('-05:00');
    // "in 2 hours" is two hours of real time.
    expect(requestedTime('in 2 hours', Date.parse('2026-03-08T06:30:00Z'), ny).at).toBe(Date.parse('2026-03-08T08:30:00Z'));
  });
});

describe('what the reader says of what it read', () => {
  const CALL = Date.parse(CALLS.IN!.end);
  const ZONE = 'Asia/Kolkata';

  it.each([
    ['Rohan asked to be called back tomorrow at 4 pm. The agent scheduled it.', 'tomorrow at 4 pm'],
    ['Haan, kal shaam 5 baje call karna', 'kal shaam 5 baje'],
    ['ठीक है, कल शाम ५ बजे कॉल कीजिए।', 'कल शाम ५ बजे'],
    ['Kal shaam saadhe 4 baje call karna.', 'Kal shaam saadhe 4 baje'],
    ['शनिवार सुबह फ़ोन करना।', 'शनिवार सुबह'],
  ])('quotes the words read in %j', (text, phrase) => {
    expect(requestedTime(text, CALL, ZONE).phrase).toBe(phrase);
  });

  it('says when the day was read and the hour is the rules\'', () => {
    const r = requestedTime('शनिवार सुबह फ़ोन करना।', CALL, ZONE);
    expect(r.kind).toBe('day');
    expect(r.note).toMatch(/morning.*10:00/);
    expect(requestedTime('Call back tomorrow.', CALL, ZONE).note).toMatch(/no time said: 10:00/);
  });

  it('leaves two times to a person, with the phrase and both times', () => {
    const r = requestedTime('Customer said tomorrow at 4 or at 6, not sure.', CALL, ZONE);
    expect(r).toMatchObject({ kind: 'conflict', phrase: 'tomorrow at 4 or at 6' });
    expect(r.at).toBeUndefined();
    expect(r.note).toMatch(/16:00, 18:00/);
  });

  it('keeps the sentence that asks for a callback when no time is said', () => {
    const r = requestedTime('Asha was driving. She asked to be called back later.', CALL, ZONE);
    expect(r).toEqual({ kind: 'none', phrase: 'She asked to be called back later.' });
  });
});
