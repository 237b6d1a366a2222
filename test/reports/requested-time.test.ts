/**
 * The callback time a customer asked for, read from what was said: English and Hinglish,
 * relative and absolute, with and without a day, each read in the contact's zone against
 * a fixed clock: a call made on Thursday 26 November 2026 at 11:00 in India.
 */
import { describe, expect, it } from 'vitest';
import { requestedTime } from '../../src/reports/requested-time.js';
import { formatDateTime } from '../../src/util/time.js';

const CALL = Date.parse('2026-11-26T05:30:00Z'); // Thursday, 11:00 in Asia/Kolkata
const ZONE = 'Asia/Kolkata';
const read = (text: string, at = CALL, zone = ZONE) => {
  const r = requestedTime(text, at, zone);
  return r.at === undefined ? undefined : formatDateTime(r.at, zone, { minutes: true });
};

describe('the requested time of a callback', () => {
  it.each([
    // English, a day and a time
    ['tomorrow at 4 pm', '2026-11-27 16:00'],
    ['Call me tomorrow morning', '2026-11-27 10:00'],
    ['tomorrow 10:30 am', '2026-11-27 10:30'],
    ['tmrw 4pm', '2026-11-27 16:00'],
    ['Tomorrow evening', '2026-11-27 18:00'],
    ['tomorrow at noon', '2026-11-27 12:00'],
    ['around 4:45 pm tomorrow', '2026-11-27 16:45'],
    ['4 oclock tomorrow', '2026-11-27 16:00'],
    ['today at 6 pm', '2026-11-26 18:00'],
    ['this evening after 6', '2026-11-26 18:00'],
    ['day after tomorrow', '2026-11-28 10:00'],
    // weekdays
    ['next Monday morning', '2026-11-30 10:00'],
    ['on Monday', '2026-11-30 10:00'],
    ['on Friday afternoon', '2026-11-27 15:00'],
    ['Saturday at 11', '2026-11-28 11:00'],
    ['next Tuesday at 10', '2026-12-01 10:00'],
    ['Thursday', '2026-12-03 10:00'],
    ['next week', '2026-11-30 10:00'],
    // times without a date: today if still ahead, else tomorrow
    ['at 4', '2026-11-26 16:00'],
    ['at 9', '2026-11-27 09:00'],
    ['5 pm', '2026-11-26 17:00'],
    ['10 am', '2026-11-27 10:00'],
    ['at 16:30', '2026-11-26 16:30'],
    ['call back at 7 in the evening', '2026-11-26 19:00'],
    // relative
    ['in 2 hours', '2026-11-26 13:00'],
    ['after 30 minutes', '2026-11-26 11:30'],
    ['in half an hour', '2026-11-26 11:30'],
    ['in two hours', '2026-11-26 13:00'],
    ['in 3 days', '2026-11-29 10:00'],
    // absolute dates
    ['on 5th December at 11 am', '2026-12-05 11:00'],
    ['December 3 at 2:30 pm', '2026-12-03 14:30'],
    ['2026-12-10 at 15:00', '2026-12-10 15:00'],
    ['on 20 Jan', '2027-01-20 10:00'],
    // Hinglish
    ['kal shaam 5 baje', '2026-11-27 17:00'],
    ['kal subah saade 9 baje', '2026-11-27 09:30'],
    ['kal dopahar 2 baje', '2026-11-27 14:00'],
    ['kal raat 8 baje', '2026-11-27 20:00'],
    ['aaj shaam 7 baje', '2026-11-26 19:00'],
    ['parso subah 11 baje', '2026-11-28 11:00'],
    ['somvar ko 3 baje', '2026-11-30 15:00'],
    ['shukravar shaam', '2026-11-27 18:00'],
    ['agle hafte', '2026-11-30 10:00'],
    ['2 ghante baad', '2026-11-26 13:00'],
    ['kal sava 5 baje', '2026-11-27 17:15'],
    ['kal paune 6 baje shaam', '2026-11-27 17:45'],
    ['dedh baje kal', '2026-11-27 13:30'],
    // summaries as the service writes them
    ['Rohan Mehta was busy and asked to be called back tomorrow at 4 pm. The agent scheduled the callback.', '2026-11-27 16:00'],
    ['Priya Nair was busy and asked to be called back this evening after 6. The agent scheduled the callback.', '2026-11-26 18:00'],
    ['Farhan Ali was busy and asked to be called back on Friday afternoon. The agent scheduled the callback.', '2026-11-27 15:00'],
  ])('%s → %s', (text, expected) => {
    expect(read(text)).toBe(expected);
  });

  it('names the words it read', () => {
    expect(requestedTime('Rohan asked to be called back tomorrow at 4 pm. The agent scheduled it.', CALL, ZONE).phrase).toBe('tomorrow at 4 pm');
    expect(requestedTime('Haan, kal shaam 5 baje call karna', CALL, ZONE).phrase).toBe('kal shaam 5 baje');
  });

  it.each([
    'Asha asked to be called back later. She was driving.',
    'Please call me some other time.',
    'Baad mein baat karte hain.',
  ])('no time in "%s": none given, and the sentence kept for a person', (text) => {
    const r = requestedTime(text, CALL, ZONE);
    expect(r.at).toBeUndefined();
    expect(r.phrase.length).toBeGreaterThan(0);
    expect(text).toContain(r.phrase);
  });

  it('reads the time in the contact\'s zone, across a change of clocks', () => {
    // 10:00 in New York; tomorrow at 4 pm there is 21:00 UTC.
    expect(requestedTime('tomorrow at 4 pm', Date.parse('2026-11-26T15:00:00Z'), 'America/New_York').at).toBe(Date.parse('2026-11-27T21:00:00Z'));
    // Saturday 7 March 2026; the clocks go forward on Sunday: 4 pm is then 20:00 UTC.
    expect(requestedTime('tomorrow at 4 pm', Date.parse('2026-03-07T15:00:00Z'), 'America/New_York').at).toBe(Date.parse('2026-03-08T20:00:00Z'));
    // The same words on the same call in India.
    expect(requestedTime('tomorrow at 4 pm', CALL, ZONE).at).toBe(Date.parse('2026-11-27T10:30:00Z'));
  });
});
