/**
 * The requested-time reader of Hinglish (Hindi in Latin letters: "kal shaam saadhe 4 baje",
 * "2 din baad", "somvar ko"), and of Devanagari once devanagari.ts has written it in Latin
 * letters. Its patterns read English too, in the same pass (kal and tomorrow are one pattern,
 * and the order in which patterns take their words decides what is left to the next): for
 * English text this is the second reader, checked against chrono-node (english.ts).
 */
import { DAY, negated, nextMonday, nextWeekday, PART_PATTERNS, PARTS, BEFORE, UNTIL, type Mentions, type Reference, type Span } from './core.js';
import type { Normalized } from './devanagari.js';

// ---------------------------------------------------------------- words

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  ek: 1, do: 2, teen: 3, tin: 3, char: 4, chaar: 4, paanch: 5, panch: 5, paach: 5, chhe: 6, chhah: 6, chah: 6, che: 6, cheh: 6,
  saat: 7, sat: 7, aath: 8, ath: 8, nau: 9, das: 10, gyarah: 11, gyara: 11, barah: 12, baarah: 12, bara: 12,
  pandrah: 15, bees: 20, tees: 30,
};
const NUM = `(?:\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})`;
/** Numbers that are never English words ("do", "sat" and "char" are). */
const HOUR_WORD = `(?:\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
const NUMBER_WORD = /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/;
const numberOf = (s: string): number | undefined => (/^\d+$/.test(s) ? Number(s) : NUMBER_WORDS[s]);

const WEEKDAYS: Array<[string, number]> = [
  ['sunday|sun|ravivar|raviwar|ravivaar|itvaar|itwar|itvar|itwaar', 0],
  ['monday|mon|somvar|somwar|somvaar|somwaar', 1],
  ['tuesday|tue|tues|mangalvar|mangalwar|mangalvaar|mangalwaar|mangal', 2],
  ['wednesday|wed|budhvar|budhwar|budhvaar|budhwaar|budh', 3],
  ['thursday|thu|thur|thurs|guruvar|guruwar|guruvaar|guruwaar|brihaspativar|brihaspatvar|veervar|virvar', 4],
  ['friday|fri|shukravar|shukrawar|shukravaar|shukrawaar|shukra', 5],
  ['saturday|sat|shanivar|shaniwar|shanivaar|shaniwaar|shani', 6],
];
/** Weekday words that are also other words: a weekday only after "on", "next", "this", "coming" or before "ko". */
const ANY_WEEKDAY = new RegExp(`\\b(?:${WEEKDAYS.map(([w]) => w).join('|')})\\b`);
const SHORT_WEEKDAYS = new Set(['sun', 'mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'sat', 'mangal', 'budh', 'shukra', 'shani']);
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const AMPM = '(a\\.?m\\.?|p\\.?m\\.?)(?![a-z])';
const MONTH_WORD = MONTH.replace(/^\(/, '(?:');
const BAJE = '(?:baje|bje|bajey|baji|baj)';
/** A clock time in a range: "4", "4:30", "4 pm". */
const T = `(\\d{1,2})(?:[:.](\\d{2}))?\\s*(?:${AMPM})?`;
const partWords = PARTS.map(([w]) => w).join('|');
/** Words after a number that make it not an hour. */
const NOT_HOUR = `(?!\\s*(?:[:.]?\\d|%|days?\\b|din\\b|dino|hours?\\b|hrs?\\b|ghant|minutes?\\b|mins?\\b|weeks?\\b|hafte|months?\\b|mahin|years?\\b|saal|st\\b|nd\\b|rd\\b|th\\b|tarikh|tareekh|rupe|rs\\b|lakh|times?\\b|baar|people|log|calls?\\b|[/-]\\d|${MONTH_WORD}\\b))`;

// ---------------------------------------------------------------- the patterns

/** The patterns, compiled once (global: matchAll copies one, so no lastIndex is shared). */
const IN_SPAN = new RegExp(`\\b(?:in|after|within)\\s+(?:about\\s+|around\\s+|another\\s+|next\\s+)?(${NUM}|half an?|an?|a couple of|couple of)\\s*(hours?|hrs?|minutes?|mins?)\\b`, 'g');
const SPAN_BAAD = new RegExp(`\\b(${NUM}|aadhe|aadha|adhe|adha|dedh|derh)\\s*(ghante|ghanta|ghanton|minute|minutes|min|mins)\\s*(?:ke\\s+)?(?:baad|bad|mein|me|main)\\b`, 'g');
const IN_DAYS = new RegExp(`\\b(?:in|after)\\s+(?:about\\s+)?(${NUM}|an?|a couple of)\\s+(days?|weeks?)\\b`, 'g');
const DAYS_BAAD = new RegExp(`\\b(${NUM}|an?|ek)\\s*(days?|din|dino|dinon|weeks?|hafte|hafta|hafton)\\s*(?:ke\\s+)?(?:baad|bad|mein|me|main|later|from now|from today)\\b`, 'g');
const DAY_AFTER = new RegExp('\\b(?:the\\s+)?day after tomorrow\\b|\\b(?:parso|parson|parsoon|parsu|parsoo)\\b', 'g');
const OR_DAY_AFTER = new RegExp('\\b(?:or|ya)\\s+(?:the\\s+)?day after\\b(?!\\s+tomorrow)', 'g');
const TOMORROW = new RegExp('\\b(?:tomorrow|tomorow|tommorow|tommorrow|tomorrrow|tmrw|tmr|tmrow|2moro|2morrow|kal|kaal)\\b', 'g');
const TODAY = new RegExp('\\b(?:today|aaj|aj|later today)\\b', 'g');
const THIS_PART = new RegExp('\\bthis (?=morning|afternoon|evening)', 'g');
const NEXT_WEEK = new RegExp('\\b(?:next|coming|agle|agla|aane vaale|aane wale)\\s+(?:week|hafte|hafta|wk)\\b', 'g');
const WEEKEND = new RegExp('\\b(?:this\\s+|the\\s+|coming\\s+)?(?:weekend)\\b', 'g');
const WEEKDAY_PATTERNS = WEEKDAYS.map(([names, dow]) => [new RegExp(`\\b(?:(on|next|this|coming|agle|is|by)\\s+)?(${names})\\b(\\s+(?:ko|ke din))?`, 'g'), dow] as const);
const ISO_DATE = new RegExp('\\b(\\d{4})-(\\d{2})-(\\d{2})\\b', 'g');
const RANGE = new RegExp(`(?<![-/\\d])\\b(?:between\\s+${T}\\s+(?:and|&|to|-)\\s+${T}|${T}\\s*(?:-|–|to|se|till|until)\\s*${T}\\s*(?:${BAJE})?\\s*(?:ke\\s+)?(?:beech|bich|tak|darmiyan)?)(?![-/.:]?\\d)${NOT_HOUR}`, 'g');
const FRACTION = new RegExp(`\\b(saadhe|saade|saadey|sadhe|sade|saarhe|sarhe|sawa|sava|savaa|sawaa|paune|pone|poune|paunay)\\s+(${NUM})(?:\\s*${BAJE})?\\b(?:\\s*${AMPM})?`, 'g');
const DEDH_DHAI = new RegExp(`\\b(dedh|derh|dhai|dhaai|adhai|adhaai)\\s*${BAJE}\\b`, 'g');
const BAJ_KAR = new RegExp(`\\b(${NUM})\\s*(?:baj\\s*kar|bajkar|baj\\s*ke|bajke)\\s*(\\d{1,2})\\s*(?:minute|minutes|min|mins)?\\b`, 'g');
const HALF_PAST = new RegExp(`\\b(half|quarter)\\s+(past|to)\\s+(${HOUR_WORD})\\b(?:\\s*${AMPM})?`, 'g');
const CLOCK = new RegExp(`\\b(\\d{1,2})[:.](\\d{2})\\b\\s*(?:${AMPM}|${BAJE}|hrs|hours)?(?![-/.:]?\\d)`, 'g');
const HOUR_SAID = new RegExp(`\\b(${NUM})\\s*(?:${AMPM}|o'?\\s?clock|${BAJE}\\b)`, 'g');
const NOON = new RegExp('\\b(?:12\\s+)?(?:noon|midday|mid-day)\\b', 'g');
const AT_HOUR = new RegExp(`\\b(?:at|around|arnd|by|after|about|abt|approx|approximately|@)\\s+(?:about\\s+|around\\s+)?(${HOUR_WORD})\\b${NOT_HOUR}`, 'g');
const KE_BAAD = new RegExp(`\\b(\\d{1,2})\\s+(?:ke\\s+baad|ke\\s+bad|ke\\s+aas\\s*paas|ke\\s+around|ke\\s+baad\\s+hi)\\b`, 'g');
const PART_THEN_HOUR = new RegExp(`\\b(?:${partWords})\\s+(?:ko\\s+|ke\\s+|at\\s+|around\\s+)?(\\d{1,2})\\b${NOT_HOUR}`, 'g');
const HOUR_PART = new RegExp(`\\b(\\d{1,2})\\s+(?=(?:in the|in|at)\\s+(?:morning|afternoon|evening|night)\\b)`, 'g');
const DAY_MONTH = new RegExp(`\\b(?:on\\s+)?(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b(?:,?\\s+(\\d{4}))?`, 'g');
const MONTH_DAY = new RegExp(`\\b(?:on\\s+)?${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?${NOT_HOUR}`, 'g');
const SLASH_DATE = new RegExp('\\b(?:on\\s+)?(\\d{1,2})[/-](\\d{1,2})(?:[/-](\\d{2}|\\d{4}))?\\b', 'g');
const TARIKH = new RegExp('\\b(?:on\\s+)?(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s*(?:tarikh|tareekh|taarikh|tarik)\\b(?:\\s+ko)?|\\bon\\s+the\\s+(\\d{1,2})(?:st|nd|rd|th)\\b', 'g');

/** Days, times, parts of the day and relative instants in the normalized `t`, each with its span. */
export function patternMentions(t: string, ref: Reference): Mentions {
  let free = t; // what no pattern has read yet: read spans are blanked
  const m: Mentions = { days: [], times: [], parts: [], rel: [] };
  // Which patterns can match at all: most texts hold few of their words, and each skipped pattern is a scan saved.
  const digit = /\d/.test(t);
  const numberWord = NUMBER_WORD.test(t);
  // `f` reads a match: false leaves its words to the patterns after it; a span blanks only those words.
  const take = (re: RegExp, f: (x: RegExpExecArray, span: Span) => boolean | void | Span, when = true) => {
    if (!when) return;
    for (const x of [...free.matchAll(re)]) {
      const span = { start: x.index!, end: x.index! + x[0].length };
      // A match's leading space is not part of it.
      while (span.start < span.end && free[span.start] === ' ') span.start++;
      while (span.end > span.start && free[span.end - 1] === ' ') span.end--;
      const read = f(x as RegExpExecArray, span);
      if (read === false) continue;
      const { start, end } = typeof read === 'object' ? read : span;
      free = free.slice(0, start) + ' '.repeat(end - start) + free.slice(end);
    }
  };
  const day = (span: Span, d: number, note?: string) => {
    if (negated(t, span.start, span.end)) return;
    m.days.push({ ...span, day: d, ...(note ? { note } : {}) });
  };
  const time = (span: Span, h: number, min: number, ampm?: string) => {
    if (h > 23 || min > 59) return false;
    let hh = h;
    const mer = ampm?.[0];
    if (mer === 'p' && hh < 12) hh += 12;
    else if (mer === 'a' && hh === 12) hh = 0;
    const before = BEFORE.test(t.slice(Math.max(0, span.start - 12), span.start)) || UNTIL.test(t.slice(span.end, span.end + 16));
    m.times.push({ ...span, minutes: hh * 60 + min, ampm: Boolean(mer) || h === 0 || h >= 13, ...(before ? { before } : {}) });
    return true;
  };

  // Relative instants: "in 2 hours", "after half an hour", "2 ghante baad", "aadhe ghante mein".
  take(IN_SPAN, (x, s) => {
    const n = /half/.test(x[1]!) ? 0.5 : /^an?$/.test(x[1]!) ? 1 : /couple/.test(x[1]!) ? 2 : numberOf(x[1]!);
    if (n === undefined) return false;
    m.rel.push({ ...s, at: ref.ms + n * (/^h/.test(x[2]!) ? 3_600_000 : 60_000) });
  }, /\b(?:hours?|hrs?|minutes?|mins?)\b/.test(t));
  take(SPAN_BAAD, (x, s) => {
    const n = /^a+dh/.test(x[1]!) ? 0.5 : /^de/.test(x[1]!) ? 1.5 : numberOf(x[1]!);
    if (n === undefined) return false;
    m.rel.push({ ...s, at: ref.ms + n * (/^gh/.test(x[2]!) ? 3_600_000 : 60_000) });
  }, /ghant|min/.test(t));

  // Relative days: "in two days", "after 3 days", "2 din baad", "do din mein", "a week from now".
  take(IN_DAYS, (x, s) => {
    const n = /^an?$/.test(x[1]!) ? 1 : /couple/.test(x[1]!) ? 2 : numberOf(x[1]!);
    if (n === undefined) return false;
    day(s, ref.today + n * (/^w/.test(x[2]!) ? 7 : 1) * DAY);
  }, /\b(?:days?|weeks?)\b/.test(t));
  take(DAYS_BAAD, (x, s) => {
    const n = /^an?$/.test(x[1]!) ? 1 : numberOf(x[1]!);
    if (n === undefined) return false;
    day(s, ref.today + n * (/^(w|h)/.test(x[2]!) ? 7 : 1) * DAY);
  }, /\b(?:days?|din|dino|dinon|weeks?|hafte|hafta|hafton)\b/.test(t));

  // Named days.
  take(DAY_AFTER, (_x, s) => day(s, ref.today + 2 * DAY));
  take(OR_DAY_AFTER, (_x, s) => day({ start: s.end - 'day after'.length, end: s.end }, ref.today + 2 * DAY));
  take(TOMORROW, (_x, s) => day(s, ref.today + DAY));
  take(TODAY, (_x, s) => day(s, ref.today));
  take(THIS_PART, (_x, s) => day(s, ref.today));
  take(NEXT_WEEK, (_x, s) => day(s, nextMonday(ref), 'next week: its Monday'));
  take(WEEKEND, (_x, s) => day(s, nextWeekday(ref, 6), 'the weekend: its Saturday'));

  // Weekdays: their first occurrence after the day of the call.
  for (const [re, dow] of ANY_WEEKDAY.test(t) ? WEEKDAY_PATTERNS : []) {
    take(re, (x, s) => {
      if (SHORT_WEEKDAYS.has(x[2]!) && !x[1] && !x[3]) return false;
      day(s, nextWeekday(ref, dow));
    });
  }

  // Dates in ISO form, before their numbers are read as hours.
  const dateOf = (y: number | undefined, mo: number, d: number, s: Span) => {
    if (mo < 0 || mo > 11 || d < 1 || d > 31) return false;
    let at = Date.UTC(y ?? ref.year, mo, d);
    if (new Date(at).getUTCDate() !== d) return false;
    // A date without a year that has passed is next year's.
    if (y === undefined && at < ref.today) at = Date.UTC(ref.year + 1, mo, d);
    day(s, at);
    return true;
  };
  take(ISO_DATE, (x, s) => dateOf(Number(x[1]), Number(x[2]) - 1, Number(x[3]), s), digit);

  // Ranges of hours, read as their start: "between 4 and 5 pm", "4-5 pm", "4 se 5 baje ke beech".
  take(RANGE, (x, s) => {
    const g = x[1] !== undefined ? x.slice(1, 7) : x.slice(7, 13);
    const [h1, m1, a1, h2, , a2] = g;
    let mer = a1 ?? a2;
    // "11 to 1 pm": the start is before noon.
    if (!a1 && a2 && Number(h1) > Number(h2) && Number(h1) < 12) mer = 'am';
    return time(s, Number(h1), Number(m1 ?? 0), mer);
  }, digit);

  // Hindi clock words: "saadhe 4 baje" 4:30, "sawa 5" 5:15, "paune 6" 5:45, "dedh baje" 1:30, "dhai baje" 2:30.
  take(FRACTION, (x, s) => {
    const h = numberOf(x[2]!);
    if (h === undefined || h < 1 || h > 12) return false;
    const f = x[1]!;
    const [hh, mm] = /^s\w*d|^s\w*r/.test(f) ? [h, 30] : /^saw|^sav/.test(f) ? [h, 15] : [h - 1 || 12, 45];
    return time(s, hh, mm, x[3]);
  }, /\b(?:saa?r?d|sade|sa[wv]aa?\b|paun|pone|poune)/.test(t));
  take(DEDH_DHAI, (x, s) => time(s, /^de/.test(x[1]!) ? 1 : 2, 30), /\b(?:dedh|derh|dhaa?i|adhaa?i)\b/.test(t));
  take(BAJ_KAR, (x, s) => {
    const h = numberOf(x[1]!);
    return h === undefined ? false : time(s, h, Number(x[2]));
  }, /baj/.test(t));
  // English clock words: "half past 4", "quarter past 5", "quarter to 6".
  take(HALF_PAST, (x, s) => {
    const h = numberOf(x[3]!);
    if (h === undefined) return false;
    return x[2] === 'to' ? time(s, h - 1 || 12, 45, x[4]) : time(s, h, x[1] === 'half' ? 30 : 15, x[4]);
  }, /half|quarter/.test(t));
  // "4:30 pm", "16:30", "4.30", "10:30 baje".
  take(CLOCK, (x, s) => time(s, Number(x[1]), Number(x[2]), x[3]), digit);
  // "4 pm", "five pm", "4 o'clock", "5 baje", "paanch baje".
  take(HOUR_SAID, (x, s) => {
    const h = numberOf(x[1]!);
    return h === undefined ? false : time(s, h, 0, x[2]);
  }, /[ap]\.?m|clock|baj|bje/.test(t));
  take(NOON, (_x, s) => time(s, 12, 0, 'pm'), /noon|mid-?day/.test(t));
  // "at 4", "around 5", "after 6", "by 11", "6 ke baad".
  take(AT_HOUR, (x, s) => {
    const h = numberOf(x[1]!);
    return h === undefined ? false : time(s, h, 0);
  }, digit || numberWord);
  take(KE_BAAD, (x, s) => time(s, Number(x[1]), 0), digit);
  // A part of the day with a bare number: "shaam 5", "subah 10 ko", "7 in the evening".
  take(PART_THEN_HOUR, (x) => {
    // Only the number: the part of the day is read below.
    const at = x.index! + x[0].lastIndexOf(x[1]!);
    const span = { start: at, end: at + x[1]!.length };
    return time(span, Number(x[1]), 0) && span;
  }, digit);
  take(HOUR_PART, (x, s) => time(s, Number(x[1]), 0), digit);

  // Dates: "5th December", "December 5", "5/12", "5 tarikh".
  take(DAY_MONTH, (x, s) => dateOf(x[3] ? Number(x[3]) : undefined, MONTHS.indexOf(x[2]!.slice(0, 3)), Number(x[1]), s), digit);
  take(MONTH_DAY, (x, s) => dateOf(x[3] ? Number(x[3]) : undefined, MONTHS.indexOf(x[1]!.slice(0, 3)), Number(x[2]), s), digit);
  take(SLASH_DATE, (x, s) => {
    const [a, b] = [Number(x[1]), Number(x[2])];
    const y = x[3] ? (x[3].length === 2 ? 2000 + Number(x[3]) : Number(x[3])) : undefined;
    return ref.us ? dateOf(y, a - 1, b, s) : dateOf(y, b - 1, a, s);
  }, digit);
  take(TARIKH, (x, s) => {
    const d = Number(x[1] ?? x[2]);
    const w = new Date(ref.today);
    let at = Date.UTC(w.getUTCFullYear(), w.getUTCMonth(), d);
    if (at < ref.today) at = Date.UTC(w.getUTCFullYear(), w.getUTCMonth() + 1, d);
    if (d < 1 || d > 31 || new Date(at).getUTCDate() !== d) return false;
    day(s, at);
  }, digit);

  // Parts of the day.
  for (const [re, part] of PART_PATTERNS) {
    take(re, (x, s) => {
      m.parts.push({ ...s, part });
      // "tonight" is also a day ("this evening" was read as one above).
      if (x[0] === 'tonight') day(s, ref.today);
    });
  }
  return m;
}

/** Hinglish or Hindi: Devanagari letters, or a Hindi word for a day, a time or a part of the day. */
const HINDI_WORD = /\b(?:aaj|kal|parso|parson|baje|bje|bajey|shaam|sham|subah|subha|dopahar|raat|saadhe|sadhe|saade|sawa|paune|dedh|dhai|somvar|somwar|mangalvar|mangalwar|budhvar|budhwar|guruvar|guruwar|shukravar|shukrawar|shanivar|shaniwar|ravivar|raviwar|itvaar|itwar|din|ghante|hafte|baad|ko|karna|karo|kijiye|kariye|karein|karenge|karunga|kar|hai|hain|hoon|hu|mein|nahi|tarikh|kaha|bola|bolo|ruko|abhi|baje|beech|pehle|tak)\b/;

export function isHindi(n: Normalized): boolean {
  return n.devanagari || HINDI_WORD.test(n.text);
}
