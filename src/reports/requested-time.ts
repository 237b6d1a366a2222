/**
 * The time a customer asked to be called back, read from what was said, in English, Hindi
 * (Devanagari) and Hinglish (Hindi in Latin letters): "in two days at 11 am", "tomorrow
 * evening at 7", "kal shaam saadhe 4 baje", "परसों सुबह 10 बजे", "शनिवार सुबह". One pure
 * function, `requestedTime(text, referenceMs, zone)`, for every command that needs it
 * (`campaign followups`, `campaign redial --at-requested-time`, the report's callbacks, the
 * MCP tools that run them).
 *
 * The time is a wall time of the contact's `zone`, counted from `referenceMs` (the end of
 * the call), and turned into an instant with that zone's rules on that day, so a New York
 * callback across a change of clocks gets the instant its clocks will show.
 *
 * English is read by chrono-node (its parse of days, dates and times, then the rules below);
 * Hindi and Hinglish by the patterns of this file (time-words.ts writes Devanagari in Latin
 * letters first). For English both read, and where they disagree the phrase goes to a person.
 *
 * Rules where speech is vague (and the result says which was applied, `note`):
 * - a day without a time: a part of the day if one is said (morning 10:00, afternoon 15:00,
 *   evening 18:00, night 20:00), else 10:00; the result is `kind: 'day'`;
 * - an hour without am/pm: the part of the day decides (shaam 7 is 19:00, subah 7 is 07:00);
 *   without one, 8 to 11 are morning and 12 to 7 afternoon or evening;
 * - a time without a day: today if it is still ahead of the call, else tomorrow;
 * - a weekday ("Monday", "next Monday", "somvar ko"): its first occurrence after the day of the call;
 * - "kal"/"कल" is tomorrow (a callback is never asked for yesterday); "next week" its Monday;
 * - a range ("between 4 and 5", "4 se 5 ke beech") is its start;
 * - saadhe/साढ़े is half past, sawa/सवा a quarter past, paune/पौने a quarter to, dedh 1:30, dhai 2:30;
 * - a day said with "not", "busy" or "nahi" ("busy today, call tomorrow", "aaj nahi") is not the day asked for.
 * Never a guess: two different days or times ("tomorrow at 4 or Friday at 11") give
 * `kind: 'conflict'` and the phrase, for a person.
 */
import * as chronoEn from 'chrono-node/en';
import { fromWallTime, wallClock } from '../util/time.js';
import { normalize, type Normalized } from './requested-time/devanagari.js';

export type RequestedKind = 'time' | 'day' | 'conflict' | 'none';

export interface RequestedTime {
  /**
   * `time`: a day and a time were read (or a time, and the day follows from it);
   * `day`: a day was read, and at most a part of it: `at` is the hour the rules give, `note` says so;
   * `conflict`: two different days or times were said: no `at`, a person must read `phrase`;
   * `none`: no day or time was said: `phrase` is the sentence that asks for the callback.
   */
  kind: RequestedKind;
  /** The instant (ms since the epoch), for `time` and `day`. */
  at?: number;
  /** The words read, as said; for `none`, the sentence that asks for a callback. */
  phrase: string;
  /** What the rules supplied ("no time said: 10:00") or what conflicts ("two times: 16:00, 18:00"). */
  note?: string;
}

/** Which reader reads English: chrono-node and this file's patterns together (the default), or either alone (to compare them). */
export type EnglishReader = 'both' | 'chrono' | 'own';

type Part = 'morning' | 'afternoon' | 'evening' | 'night';
const PART_HOUR: Record<Part, number> = { morning: 10, afternoon: 15, evening: 18, night: 20 };
const DEFAULT_HOUR = 10;
const DAY = 86_400_000;

interface Span { start: number; end: number }
interface DayMention extends Span { day: number; note?: string }
interface TimeMention extends Span { minutes: number; ampm: boolean; /** "before 11", "11 se pehle": a time not to be passed. */ before?: boolean }
interface PartMention extends Span { part: Part }
interface RelMention extends Span { at: number }
interface Mentions { days: DayMention[]; times: TimeMention[]; parts: PartMention[]; rel: RelMention[] }

/** The call's moment as the contact's clocks show it. */
interface Reference { ms: number; zone: string; today: number; nowMinutes: number; dow: number; year: number; us: boolean }

function reference(ms: number, zone: string): Reference {
  const w = wallClock(ms, zone);
  const today = Date.parse(`${w.date}T00:00:00Z`);
  return {
    ms, zone, today,
    nowMinutes: Number(w.time.slice(0, 2)) * 60 + Number(w.time.slice(3, 5)),
    dow: new Date(today).getUTCDay(),
    year: Number(w.date.slice(0, 4)),
    us: zone.startsWith('America/') || zone.startsWith('US/'),
  };
}

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
const PARTS: Array<[string, Part]> = [
  ['early morning|morning|mrng|subah|subha|subeh|subh|savere|sawere|savera|sawera', 'morning'],
  ['afternoon|after lunch|lunch ?time|post lunch|dopahar|dopehar|dophar|dopahr|dupahar|dopaher', 'afternoon'],
  ['evening|eve|shaam|sham|saam|shyam', 'evening'],
  ['tonight|night|raat|ratri', 'night'],
];
/** A clock time in a range: "4", "4:30", "4 pm". */
const T = `(\\d{1,2})(?:[:.](\\d{2}))?\\s*(?:${AMPM})?`;
const partWords = PARTS.map(([w]) => w).join('|');
/** Words after a number that make it not an hour. */
const NOT_HOUR = `(?!\\s*(?:[:.]?\\d|%|days?\\b|din\\b|dino|hours?\\b|hrs?\\b|ghant|minutes?\\b|mins?\\b|weeks?\\b|hafte|months?\\b|mahin|years?\\b|saal|st\\b|nd\\b|rd\\b|th\\b|tarikh|tareekh|rupe|rs\\b|lakh|times?\\b|baar|people|log|calls?\\b|[/-]\\d|${MONTH_WORD}\\b))`;

/** Before a time, or after it: a time not to be passed ("before 5", "5 se pehle", "5 baje tak"). */
const BEFORE = /\b(?:before|no later than|latest by)\s+$/;
const UNTIL = /^\s*(?:baje\s+|bje\s+)?(?:se\s+pehle|se\s+pahle|ke\s+pehle|ke\s+pahle|pehle|tak)\b/;

/** A day said as not the one wanted: "not today", "busy today", "aaj nahi". */
function negated(t: string, start: number, end: number): boolean {
  const before = t.slice(Math.max(0, start - 30), start);
  const after = t.slice(end, end + 24);
  return /\b(?:not|no|busy|unavailable|out|travelling|traveling|can'?t|cannot|isn'?t|wasn'?t|won'?t|except)\s+(?:on\s+|for\s+|be\s+|do\s+|make\s+it\s+)?$/.test(before)
    || /^\s*(?:(?:is|he|she|i|it|to|toh|ko|mein|main|me)\s+)?(?:nahi|nahin|nhi|nai|mat|busy|won'?t|doesn'?t|isn'?t|is not|is busy|is bad|off\b)/.test(after);
}

// ---------------------------------------------------------------- this file's reader

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
const PART_PATTERNS = PARTS.map(([words, part]) => [new RegExp(`\\b(?:${words})\\b`, 'g'), part] as const);

/** Days, times, parts of the day and relative instants in the normalized `t`, each with its span. */
function ownMentions(t: string, ref: Reference): Mentions {
  let free = t; // what no pattern has read yet: read spans are blanked
  const m: Mentions = { days: [], times: [], parts: [], rel: [] };
  // Which patterns can match at all: most texts hold few of their words, and each skipped pattern is a scan saved.
  const digit = /\d/.test(t);
  const numberWord = NUMBER_WORD.test(t);
  const take = (re: RegExp, f: (x: RegExpExecArray, span: Span) => boolean | void, when = true) => {
    if (!when) return;
    for (const x of [...free.matchAll(re)]) {
      const span = { start: x.index!, end: x.index! + x[0].length };
      // A match's leading space is not part of it.
      while (span.start < span.end && free[span.start] === ' ') span.start++;
      while (span.end > span.start && free[span.end - 1] === ' ') span.end--;
      if (f(x as RegExpExecArray, span) === false) continue;
      free = free.slice(0, span.start) + ' '.repeat(span.end - span.start) + free.slice(span.end);
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
  take(OR_DAY_AFTER, (_x, s) => day({ start: s.start + s.end - s.start - 9, end: s.end }, ref.today + 2 * DAY));
  take(TOMORROW, (_x, s) => day(s, ref.today + DAY));
  take(TODAY, (_x, s) => day(s, ref.today));
  take(THIS_PART, (_x, s) => day(s, ref.today));
  take(NEXT_WEEK, (_x, s) => {
    day(s, ref.today + ((8 - ref.dow) % 7 || 7) * DAY, 'next week: its Monday');
  });
  take(WEEKEND, (_x, s) => {
    day(s, ref.today + ((6 - ref.dow + 7) % 7 || 7) * DAY, 'the weekend: its Saturday');
  });

  // Weekdays: their first occurrence after the day of the call.
  for (const [re, dow] of ANY_WEEKDAY.test(t) ? WEEKDAY_PATTERNS : []) {
    take(re, (x, s) => {
      if (SHORT_WEEKDAYS.has(x[2]!) && !x[1] && !x[3]) return false;
      day(s, ref.today + ((dow - ref.dow + 7) % 7 || 7) * DAY);
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
  take(PART_THEN_HOUR, (x, s) => {
    // Only the number: the part of the day is read below.
    const at = x.index! + x[0].lastIndexOf(x[1]!);
    const span = { start: at, end: at + x[1]!.length };
    if (time(span, Number(x[1]), 0) === false) return false;
    free = free.slice(0, span.start) + ' '.repeat(span.end - span.start) + free.slice(span.end);
    void s;
    return false;
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

// ---------------------------------------------------------------- chrono-node's reader

const chronoParsers = new Map<boolean, chronoEn.Chrono>();
/**
 * chrono-node's casual English, month first for the US (5/12 is May 12) and day first elsewhere,
 * without what a callback never says and costs most: "3 days ago" and "2 hours later" (their
 * patterns take tenths of a second a sentence; "later" is read by this file's patterns) and
 * time zone names (the contact's zone is known).
 */
function chronoParser(us: boolean): chronoEn.Chrono {
  let p = chronoParsers.get(us);
  if (!p) {
    const conf = chronoEn.configuration.createCasualConfiguration(!us);
    p = new chronoEn.Chrono({
      parsers: conf.parsers.filter((x) => !/^ENTimeUnit(Ago|Later)FormatParser$/.test(x.constructor.name)),
      refiners: conf.refiners.filter((x) => !/Timezone/.test(x.constructor.name)),
    });
    chronoParsers.set(us, p);
  }
  return p;
}

interface ChronoResult { index: number; text: string; start: chronoEn.ParsedResult['start'] }
/** chrono's readings of a clause on a day (with the minute, for "in 2 hours"). */
const chronoReadings = new Map<string, ChronoResult[]>();
const SPAN_WORD = /hour|hr|min|now|sec/i;

/** A sentence chrono could read something in: a digit, or a word of days, parts of the day, months or spans. */
const TIME_WORD = /\d|day|tom|tmr|tonight|morn|noon|even|night|week|hour|min|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|quarter/i;

function chronoMentions(text: string, t: string, ref: Reference): Mentions {
  const m: Mentions = { days: [], times: [], parts: [], rel: [] };
  const wallNow = ref.today + ref.nowMinutes * 60_000;
  // chrono reads "between 4 and 5" as 5: the same range as "4 to 5", written in as many letters.
  const said = text.replace(/\bbetween(\s+\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?\s+)and(\s)/gi, (_all, a: string, b: string) => `       ${a}to ${b}`)
    // "two days from now" is read by the parser left out below; "in two days", as long, is read by another.
    .replace(/\b(\w+)\s+(days?|weeks?)\s+from\s+now\b/gi, (all, n: string, unit: string) => `in ${n} ${unit}`.padEnd(all.length));
  const parser = chronoParser(ref.us);
  const results: ChronoResult[] = [];
  // Clause by clause, and only those with a word of time: chrono's cost grows with the text, and
  // a clause ("asked to be called back tomorrow at 4 pm") recurs across a campaign's summaries,
  // where the sentence (with the customer's name) does not: its reading is kept for the day.
  let from = 0;
  for (const cut of [...said.matchAll(/[.!?\u0964]+(?=\s|$)|;|\s(?:and|but)\s/gi), null]) {
    const to = cut ? cut.index! + cut[0].length : said.length;
    const clause = said.slice(from, to);
    const at = from;
    from = to;
    if (!TIME_WORD.test(clause)) continue;
    const key = `${ref.us ? 'm' : 'd'}${ref.today}${SPAN_WORD.test(clause) ? `@${wallNow}` : ''}|${clause}`;
    let read = chronoReadings.get(key);
    if (!read) {
      read = parser.parse(clause, { instant: new Date(wallNow), timezone: 0 }).map((r) => ({ index: r.index, text: r.text, start: r.start }));
      if (chronoReadings.size > 5_000) chronoReadings.clear();
      chronoReadings.set(key, read);
    }
    for (const r of read) results.push({ ...r, index: r.index + at });
  }
  for (const r of results) {
    const span = { start: r.index, end: r.index + r.text.length };
    const c = r.start;
    // "now", a bare duration ("2 minute") and "the day" (of "the day after tomorrow") name no time asked for.
    if (/^\s*(?:now|(?:the\s+)?day)\s*$/i.test(r.text) || /^\s*\d+\s*(?:minutes?|mins?|hours?|hrs?|seconds?|secs?)\s*$/i.test(r.text)) continue;
    const lower = r.text.toLowerCase();
    const before = t.slice(0, span.start);
    // The range written in for "between": quoted as said.
    if (/\bbetween\s+$/.test(before)) span.start = before.search(/between\s+$/);
    // chrono reads "day after tomorrow" without "the" as tomorrow.
    const dayAfter = /\bday after\s+$/.test(before) && /^tomorrow/.test(lower);
    if (dayAfter) span.start = before.search(/day after\s+$/);
    if (/\b(?:in|after|within)\b[\s\S]*\b(?:hours?|hrs?|minutes?|mins?)\b/.test(lower) && !c.isCertain('weekday')) {
      // A span of time: counted from the call in real time (not the wall clock, which may jump).
      m.rel.push({ ...span, at: ref.ms + (c.date().getTime() - wallNow) });
      continue;
    }
    if (c.isCertain('day')) {
      if (!negated(t, span.start, span.end)) {
        // Not chrono's forwardDate, which moves "this evening" said at 18:30 to tomorrow: only a date without a year that has passed is next year's.
        let d = Date.UTC(c.get('year')!, c.get('month')! - 1, c.get('day')! + (dayAfter ? 1 : 0));
        if (!c.isCertain('year') && d < ref.today) d = Date.UTC(c.get('year')! + 1, c.get('month')! - 1, c.get('day')! + (dayAfter ? 1 : 0));
        const note = /\bnext week\b/.test(lower) ? 'next week' : undefined;
        m.days.push({ ...span, day: note ? ref.today + ((8 - ref.dow) % 7 || 7) * DAY : d, ...(note ? { note: 'next week: its Monday' } : {}) });
      }
    } else if (/^(?:this|tonight)\b/.test(lower)) {
      // "this evening": today, even once the evening has begun.
      if (!negated(t, span.start, span.end)) m.days.push({ ...span, day: ref.today });
    } else if (c.isCertain('weekday')) {
      if (!negated(t, span.start, span.end)) m.days.push({ ...span, day: ref.today + ((c.get('weekday')! - ref.dow + 7) % 7 || 7) * DAY });
    } else if (c.isCertain('month')) {
      let at = Date.UTC(ref.year, c.get('month')! - 1, 1);
      if (at < ref.today) at = Date.UTC(ref.year + 1, c.get('month')! - 1, 1);
      m.days.push({ ...span, day: at, note: 'only the month said: its first day' });
    }
    // chrono does not read "half past 4" or "quarter to 6": it reads the 4 or the 6 alone.
    if (c.isCertain('hour') && !/\b(?:half|quarter)\s+(?:past|to)\s+$/.test(before)) {
      const h = c.get('hour')!;
      const bound = BEFORE.test(before.slice(-12)) || UNTIL.test(t.slice(span.end, span.end + 16));
      m.times.push({ ...span, minutes: h * 60 + (c.get('minute') ?? 0), ampm: c.isCertain('meridiem') || h === 0 || h >= 13, ...(bound ? { before: true } : {}) });
    }
  }
  // Parts of the day, which fix am/pm and give the hour of a day said without a time.
  for (const [re, part] of PART_PATTERNS) {
    for (const x of t.matchAll(re)) m.parts.push({ start: x.index!, end: x.index! + x[0].length, part });
  }
  return m;
}

// ---------------------------------------------------------------- from what was said to a time

const clock = (min: number) => `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;

/** An hour said without am/pm, given the part of the day said nearest to it. */
function withMeridiem(t: TimeMention, part: Part | undefined): number {
  if (t.ampm) return t.minutes;
  const h = Math.floor(t.minutes / 60);
  const rest = t.minutes % 60;
  let hh = h;
  if (part === 'afternoon' || part === 'evening') hh = h < 12 ? h + 12 : h;
  else if (part === 'night') hh = h >= 5 && h < 12 ? h + 12 : h === 12 ? 0 : h;
  else if (part === 'morning') hh = h;
  else if (h >= 1 && h <= 7) hh = h + 12;
  return hh * 60 + rest;
}

function nearestPart(parts: PartMention[], s: Span): Part | undefined {
  let best: PartMention | undefined;
  let dist = Infinity;
  for (const p of parts) {
    const d = p.end <= s.start ? s.start - p.end : p.start >= s.end ? p.start - s.end : 0;
    if (d < dist) [best, dist] = [p, d];
  }
  return best?.part;
}

function resolve(m: Mentions, ref: Reference, quote: (start: number, end: number) => string, fallback: () => string): RequestedTime {
  const all: Span[] = [...m.days, ...m.times, ...m.parts, ...m.rel];
  if (m.days.length === 0 && m.times.length === 0 && m.rel.length === 0 && m.parts.length === 0) return { kind: 'none', phrase: fallback() };
  const phrase = quote(Math.min(...all.map((s) => s.start)), Math.max(...all.map((s) => s.end)));
  const days = [...new Set(m.days.map((d) => d.day))];
  const fmtDay = (d: number) => new Date(d).toISOString().slice(0, 10);
  if (days.length > 1) return { kind: 'conflict', phrase, note: `two days: ${days.map(fmtDay).join(', ')}` };
  const times = [...new Set(m.times.map((t) => withMeridiem(t, nearestPart(m.parts, t))))];
  if (times.length > 1) return { kind: 'conflict', phrase, note: `two times: ${times.map(clock).join(', ')}` };
  const rel = [...new Set(m.rel.map((r) => Math.round(r.at / 60_000) * 60_000))];
  if (rel.length > 1 || (rel.length === 1 && (days.length || times.length))) {
    return { kind: 'conflict', phrase, note: 'a time from now and another time' };
  }
  if (rel.length === 1) return { kind: 'time', at: rel[0]!, phrase };
  const parts = [...new Set(m.parts.map((p) => p.part))];
  if (times.length === 0 && parts.length > 1) return { kind: 'conflict', phrase, note: `two parts of the day: ${parts.join(', ')}` };

  const dayNote = m.days.find((d) => d.note)?.note;
  if (times.length === 1 && m.times.every((x) => x.before)) {
    // "before 5": the day, and an hour no later than the one said.
    const limit = times[0]!;
    const part = [...new Set(m.parts.map((p) => p.part))][0];
    const minutes = Math.min((part ? PART_HOUR[part] : DEFAULT_HOUR) * 60, limit - 60);
    const d = days[0] ?? (limit > ref.nowMinutes ? ref.today : ref.today + DAY);
    return { kind: 'day', at: fromWallTime(ref.zone, d + minutes * 60_000), phrase, note: `before ${clock(limit)} said: ${clock(minutes)}` };
  }
  if (times.length === 1) {
    const minutes = times[0]!;
    const d = days[0] ?? (minutes > ref.nowMinutes ? ref.today : ref.today + DAY);
    return { kind: 'time', at: fromWallTime(ref.zone, d + minutes * 60_000), phrase, ...(dayNote ? { note: dayNote } : {}) };
  }
  const part = parts[0];
  const minutes = (part ? PART_HOUR[part] : DEFAULT_HOUR) * 60;
  const d = days[0] ?? (minutes > ref.nowMinutes ? ref.today : ref.today + DAY);
  const note = [dayNote, part ? `only "${part}" said: ${clock(minutes)}` : `no time said: ${clock(minutes)}`].filter(Boolean).join('; ');
  return { kind: 'day', at: fromWallTime(ref.zone, d + minutes * 60_000), phrase, note };
}

/** Where a clause tells of the past ("he was in a meeting at 11", "called at 10:58") and asks nothing. */
const PAST = /\b(?:was|were|had|did|tha|thi|called at|rang at|received)\b/;
const ASKS = /\b(?:call(?:ed)?\s*back|callback|call (?:me|him|her|them|us)|asked|ask|wants?|prefer|request|schedul|free|available|karna|karo|kijiye|karein|kare|bola|kaha)\b/;

/** The mentions outside clauses that only tell of the past. */
function present(m: Mentions, n: Normalized): Mentions {
  const t = n.text;
  const cuts = [...[...t.matchAll(/\.\s|\s(?:and|but|aur|lekin|par)\s/g)].map((x) => [x.index!, x.index! + x[0].length] as const), ...n.breaks.map((b) => [b, b + 1] as const)]
    .sort((a, b) => a[0] - b[0]);
  const clauses: Span[] = [];
  let start = 0;
  for (const [a, b] of cuts) {
    clauses.push({ start, end: a });
    start = b;
  }
  clauses.push({ start, end: t.length });
  const pastOnly = clauses.filter((c) => {
    const s = t.slice(c.start, c.end);
    return PAST.test(s) && !ASKS.test(s);
  });
  const keep = <T extends Span>(list: T[]) => list.filter((x) => !pastOnly.some((c) => x.start >= c.start && x.end <= c.end));
  return { days: keep(m.days), times: keep(m.times), parts: keep(m.parts), rel: keep(m.rel) };
}

/** Hinglish or Hindi: Devanagari letters, or a Hindi word for a day, a time or a part of the day. */
const HINDI_WORD = /\b(?:aaj|kal|parso|parson|baje|bje|bajey|shaam|sham|subah|subha|dopahar|raat|saadhe|sadhe|saade|sawa|paune|dedh|dhai|somvar|somwar|mangalvar|mangalwar|budhvar|budhwar|guruvar|guruwar|shukravar|shukrawar|shanivar|shaniwar|ravivar|raviwar|itvaar|itwar|din|ghante|hafte|baad|ko|karna|karo|kijiye|kariye|karein|karenge|karunga|kar|hai|hain|hoon|hu|mein|nahi|tarikh|kaha|bola|bolo|ruko|abhi|baje|beech|pehle|tak)\b/;

/**
 * The callback time asked for in `text`, read in `zone` from `referenceMs` (the end of the
 * call). `english` chooses the reader of English text (default: both, which must agree).
 */
export function requestedTime(text: string, referenceMs: number, zone: string, o: { english?: EnglishReader } = {}): RequestedTime {
  const n = normalize(text);
  const ref = reference(referenceMs, zone);
  const fallback = () => callbackSentence(text);
  const own = () => resolve(present(ownMentions(n.text, ref), n), ref, n.original, fallback);
  const english = o.english ?? 'both';
  if (english === 'own' || isHindi(n)) return own();
  const chrono = resolve(present(chronoMentions(text, n.text, ref), n), ref, n.original, fallback);
  if (english === 'chrono') return chrono;
  return agree(chrono, own(), zone);
}

function isHindi(n: Normalized): boolean {
  return n.devanagari || HINDI_WORD.test(n.text);
}

/** chrono-node's reading and this file's: one where the other read nothing, the same, or a person's call. */
function agree(c: RequestedTime, o: RequestedTime, zone: string): RequestedTime {
  if (c.kind === 'none') return o;
  if (o.kind === 'none') return c;
  if (c.kind === 'conflict') return c;
  if (o.kind === 'conflict') return o;
  if (c.at === o.at) return c.phrase.length >= o.phrase.length ? c : o;
  // One read a time on the day the other read alone.
  if (c.kind !== o.kind && wallClock(c.at!, zone).date === wallClock(o.at!, zone).date) return c.kind === 'time' ? c : o;
  return { kind: 'conflict', phrase: c.phrase.length >= o.phrase.length ? c.phrase : o.phrase, note: 'read two ways' };
}

/** The sentence that speaks of calling back, for a person to read when no time could be. */
function callbackSentence(text: string): string {
  const sentences = text.split(/(?<=[.!?।])\s+/);
  return (sentences.find((s) => /call(ed|ing)?[ -]?back|callback|later|baad mein|phir se|fir se|dobara|बाद में|दोबारा|फिर से/i.test(s)) ?? text).trim();
}
