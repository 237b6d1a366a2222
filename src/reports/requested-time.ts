/**
 * The time a customer asked to be called back, read from what was said: "tomorrow at
 * 4 pm", "kal shaam 5 baje", "next Monday morning", "in two hours", "on 5 December at
 * 11". English and Hinglish (Hindi in Latin letters, as Indian callers and summaries write
 * it). The time is a wall time in the contact's zone, counted from when the call was
 * made; a phrase that names no day or time we can read gives no time, and the phrase
 * itself is kept for a person to read.
 *
 * Rules where speech is vague:
 * - a day without a time: a part of the day if one is said (morning 10:00, afternoon
 *   15:00, evening 18:00, night 20:00), else 10:00;
 * - an hour without am/pm: the part of the day decides; without one, 8 to 11 are morning
 *   and 12 to 7 afternoon or evening (callbacks are asked for in waking hours);
 * - a time without a day: today if it is still ahead of the call, else tomorrow;
 * - a weekday: its next occurrence after the day of the call ("next Monday" too);
 * - "kal" is tomorrow (a callback is never asked for yesterday);
 * - "next week": its Monday.
 */
import { fromWallTime, wallClock } from '../util/time.js';

export interface RequestedTime {
  /** The instant (ms since the epoch); undefined when the phrase names no readable time. */
  at?: number;
  /** The words the time was read from, or the sentence that asks for a callback. */
  phrase: string;
}

const WEEKDAYS: Array<[RegExp, number]> = [
  [/^(sunday|sun|ravivar|raviwar|itvaar|itwar)$/, 0],
  [/^(monday|mon|somvar|somwar)$/, 1],
  [/^(tuesday|tue|tues|mangalvar|mangalwar)$/, 2],
  [/^(wednesday|wed|budhvar|budhwar)$/, 3],
  [/^(thursday|thu|thur|thurs|guruvar|guruwar|brihaspativar)$/, 4],
  [/^(friday|fri|shukravar|shukrawar)$/, 5],
  [/^(saturday|sat|shanivar|shaniwar)$/, 6],
];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  ek: 1, do: 2, teen: 3, char: 4, chaar: 4, paanch: 5, panch: 5, chhe: 6, che: 6, saat: 7, aath: 8, nau: 9, das: 10, gyarah: 11, barah: 12,
  a: 1, an: 1,
};
type Part = 'morning' | 'afternoon' | 'evening' | 'night' | 'noon';
const PARTS: Array<[RegExp, Part]> = [
  [/\b(morning|subah|subha|savere|sawere)\b/, 'morning'],
  [/\b(noon|midday|dopahar|dopehar|dophar)\b/, 'afternoon'],
  [/\b(afternoon|lunch ?time|after lunch)\b/, 'afternoon'],
  [/\b(evening|shaam|sham|tonight)\b/, 'evening'],
  [/\b(night|raat|rat)\b/, 'night'],
];
const PART_HOUR: Record<Part, number> = { morning: 10, afternoon: 15, noon: 12, evening: 18, night: 20 };

const DAY = 86_400_000;

/** The requested time in `text`, counted from `callMs` in `zone`. */
export function requestedTime(text: string, callMs: number, zone: string): RequestedTime {
  const t = ` ${text.toLowerCase().replace(/[’']/g, '').replace(/\s+/g, ' ')} `;
  const found: Array<[number, number]> = [];
  const mark = (m: RegExpExecArray | null) => {
    if (m) found.push([m.index, m.index + m[0].length]);
    return m;
  };
  const wall = wallClock(callMs, zone);
  const today = Date.parse(`${wall.date}T00:00:00Z`); // the call's date, as a UTC-written wall date
  const nowMinutes = Number(wall.time.slice(0, 2)) * 60 + Number(wall.time.slice(3, 5));

  // Relative spans: "in 2 hours", "after 30 minutes", "2 ghante baad", "half an hour".
  const span = mark(/\b(?:in|after)\s+(?:about\s+|around\s+)?(\d+|[a-z]+|half an?)\s*(hours?|hrs?|minutes?|mins?|days?)\b/.exec(t))
    ?? mark(/\b(\d+|[a-z]+|aadhe|adhe)\s*(ghante|ghanta|ghanton|minute|minutes|min|din)\s*(?:baad|bad|mein|me)\b/.exec(t));
  if (span) {
    const n = /half|aadhe|adhe/.test(span[1]!) ? 0.5 : Number.isFinite(Number(span[1])) ? Number(span[1]) : NUMBER_WORDS[span[1]!];
    if (n !== undefined) {
      const unit = span[2]!;
      const ms = /^(h|ghant)/.test(unit) ? n * 3_600_000 : /^(d|din)/.test(unit) ? n * DAY : n * 60_000;
      if (/^(d|din)/.test(unit)) return { at: atWall(zone, today + n * DAY, PART_HOUR.morning * 60), phrase: span[0].trim() };
      return { at: Math.round((callMs + ms) / 60_000) * 60_000, phrase: span[0].trim() };
    }
  }

  // The day.
  let day: number | undefined;
  if (mark(/\b(day after tomorrow|parso|parson|parsoon)\b/.exec(t))) day = today + 2 * DAY;
  else if (mark(/\b(tomorrow|tmrw|tmr|tomorow|kal)\b/.exec(t))) day = today + DAY;
  else if (mark(/\b(today|aaj|later today|this (?:morning|afternoon|evening))\b/.exec(t))) day = today;
  else if (mark(/\bnext week\b|\bagle (?:hafte|hafta|week)\b/.exec(t))) {
    const dow = new Date(today).getUTCDay();
    day = today + ((8 - dow) % 7 || 7) * DAY;
  }
  if (day === undefined) {
    for (const word of t.matchAll(/\b[a-z]+\b/g)) {
      const w = WEEKDAYS.find(([re]) => re.test(word[0]));
      if (!w) continue;
      // "sat" and "mon" are also other words: a weekday's short form counts after "on", "next" or "this".
      if (word[0].length <= 4 && !/\b(on|next|this|coming)\s+$/.test(t.slice(0, word.index))) continue;
      const dow = new Date(today).getUTCDay();
      day = today + ((w[1] - dow + 7) % 7 || 7) * DAY;
      const before = /(?:\b(?:on|next|this|coming|agle) )?$/.exec(t.slice(0, word.index))!;
      found.push([word.index - before[0].length, word.index + word[0].length]);
      break;
    }
  }
  if (day === undefined) {
    const iso = mark(/\b(\d{4})-(\d{2})-(\d{2})\b/.exec(t));
    const dm = iso ? null : mark(/\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/.exec(t));
    const md = iso || dm ? null : mark(/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+(\d{1,2})(?:st|nd|rd|th)?\b/.exec(t));
    let y = Number(wall.date.slice(0, 4));
    let mo: number | undefined;
    let d: number | undefined;
    if (iso) [y, mo, d] = [Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])];
    else if (dm) [mo, d] = [MONTHS.indexOf(dm[2]!), Number(dm[1])];
    else if (md) [mo, d] = [MONTHS.indexOf(md[1]!), Number(md[2])];
    if (mo !== undefined && d !== undefined && d >= 1 && d <= 31) {
      let at = Date.UTC(y, mo, d);
      // A date without a year that has passed is next year's.
      if (!iso && at < today) at = Date.UTC(y + 1, mo, d);
      day = at;
    }
  }

  // The part of the day, and the time.
  let part: Part | undefined;
  for (const [re, p] of PARTS) {
    const pm = re.exec(t);
    if (pm) {
      part = p;
      mark(pm);
      break;
    }
  }
  let minutes: number | undefined;
  const clock = mark(/\b(\d{1,2})(?::|\.)(\d{2})\s*(am|pm|a\.m\.|p\.m\.)?/.exec(t))
    ?? mark(/\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.|o ?clock|baje|bje|bajey)\b/.exec(t))
    ?? mark(/\b(?:at|around|by|after|before|about|ke baad)\s+(\d{1,2})\b(?![:.\d]|\s*(?:days?|hours?|minutes?|mins?|din|ghante|st|nd|rd|th|\w*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)))/.exec(t));
  const hindiFraction = mark(/\b(saade|sadhe|sava|sawa|paune|pone)\s+(\d{1,2}|[a-z]+)\b/.exec(t));
  const dedh = mark(/\b(dedh|dhai|dhaai)\s*(?:baje|bje)?\b/.exec(t));
  if (hindiFraction) {
    const h = Number.isFinite(Number(hindiFraction[2])) ? Number(hindiFraction[2]) : NUMBER_WORDS[hindiFraction[2]!];
    if (h !== undefined) {
      const f = hindiFraction[1]!;
      minutes = /^sa(a)?dhe|^saade/.test(f) ? h * 60 + 30 : /^saw|^sav/.test(f) ? h * 60 + 15 : h * 60 - 15;
    }
  } else if (dedh) {
    minutes = /dedh/.test(dedh[1]!) ? 90 : 150;
  } else if (clock) {
    let h = Number(clock[1]);
    const min = clock[2] !== undefined && /^\d{2}$/.test(clock[2]) ? Number(clock[2]) : 0;
    const ampm = [clock[2], clock[3]].find((x) => x && /^(a|p)/.test(x));
    if (h <= 23 && min <= 59) {
      if (ampm?.startsWith('p') && h < 12) h += 12;
      else if (ampm?.startsWith('a') && h === 12) h = 0;
      minutes = h * 60 + min;
      if (ampm) part = undefined;
    }
  } else if (/\bnoon\b|\bmidday\b/.test(t)) {
    minutes = 12 * 60;
    part = undefined;
  }
  if (minutes !== undefined && minutes < 13 * 60) {
    // An hour without am/pm: the part of the day, else waking hours.
    const h = Math.floor(minutes / 60);
    if (part === 'afternoon' || part === 'evening' || part === 'night') {
      if (h < 12) minutes += 12 * 60;
    } else if (part === 'morning') {
      if (h === 12) minutes -= 12 * 60;
    } else if (!clockSaysAmPm(clock) && h >= 1 && h <= 7) {
      minutes += 12 * 60;
    }
  }
  if (minutes === undefined && part !== undefined) minutes = PART_HOUR[part] * 60;

  if (day === undefined && minutes === undefined) return { phrase: callbackSentence(text) };
  if (day === undefined) day = minutes! > nowMinutes ? today : today + DAY;
  return { at: atWall(zone, day, minutes ?? PART_HOUR.morning * 60), phrase: phraseOf(t, found) };
}

function clockSaysAmPm(clock: RegExpExecArray | null): boolean {
  return Boolean(clock && [clock[2], clock[3]].some((x) => x && /^(a|p)/.test(x)));
}

/** The instant the clocks of `zone` show `minutes` past midnight on `day` (a UTC-written wall date). */
function atWall(zone: string, day: number, minutes: number): number {
  return fromWallTime(zone, day + minutes * 60_000);
}

/** The words between the first and the last part read, as said. */
function phraseOf(t: string, found: Array<[number, number]>): string {
  const start = Math.min(...found.map((f) => f[0]));
  const end = Math.max(...found.map((f) => f[1]));
  return t.slice(start, end).trim();
}

/** The sentence that speaks of calling back, for a person to read when no time could be. */
function callbackSentence(text: string): string {
  const sentences = text.split(/(?<=[.!?])\s+/);
  return (sentences.find((s) => /call(ed|ing)?[ -]?back|callback|later|baad mein|phir se|fir se|dobara/i.test(s)) ?? text).trim();
}
