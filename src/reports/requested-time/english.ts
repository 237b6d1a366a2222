/**
 * The requested-time reader of English: chrono-node's casual English parser (days, dates,
 * times, spans) and the glue that turns its readings into the mentions the rules of core.ts
 * resolve: the contact's wall clock as its reference, the words chrono does not read as a
 * callback means them ("between 4 and 5", "the day after tomorrow", "this evening", "not
 * today"), and its readings kept per clause and day.
 */
import * as chronoEn from './chrono.js';
import { BEFORE, negated, nextMonday, nextWeekday, PART_PATTERNS, UNTIL, type Mentions, type Reference } from './core.js';

const chronoParsers = new Map<boolean, chronoEn.Chrono>();
/**
 * chrono-node's casual English, month first for the US (5/12 is May 12) and day first elsewhere,
 * without what a callback never says and costs most: "3 days ago" and "2 hours later" (their
 * patterns take tenths of a second a sentence; "later" is read by the patterns of hinglish.ts) and
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

/**
 * A sentence chrono could read something in: a digit, or a word of days, parts of the day,
 * months or spans. Months, numbers and the words chrono reads only whole start at a word
 * ("Sharma", "phone", "listen" and "decided" hold none), so a summary's sentence about the
 * customer is not parsed for nothing.
 */
const TIME_WORD = /\d|day|\btom|\btmr|tonight|morn|noon|\beven|night|week|hour|\bmin|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b|\bhalf|\bquarter/i;

/** Days, times, parts of the day and spans chrono-node reads in `text` (`t`: the same, normalized, for the words around them). */
export function chronoMentions(text: string, t: string, ref: Reference, o: { everyClause?: boolean } = {}): Mentions {
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
    // `everyClause`: for the test that shows the filter leaves out only clauses chrono reads nothing in.
    if (!o.everyClause && !TIME_WORD.test(clause)) continue;
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
        m.days.push({ ...span, day: note ? nextMonday(ref) : d, ...(note ? { note: 'next week: its Monday' } : {}) });
      }
    } else if (/^(?:this|tonight)\b/.test(lower)) {
      // "this evening": today, even once the evening has begun.
      if (!negated(t, span.start, span.end)) m.days.push({ ...span, day: ref.today });
    } else if (c.isCertain('weekday')) {
      if (!negated(t, span.start, span.end)) m.days.push({ ...span, day: nextWeekday(ref, c.get('weekday')!) });
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
