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
 * One reader a language, under requested-time/: English by chrono-node (english.ts), Hinglish
 * by patterns (hinglish.ts), which also read English a second way, Devanagari by the same
 * patterns once devanagari.ts has written it in Latin letters; core.ts holds what they share
 * and the rules below. For English both readers read, and where they disagree the phrase goes
 * to a person.
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
import { wallClock } from '../util/time.js';
import { callbackSentence, present, reference, resolve, type EnglishReader, type RequestedTime } from './requested-time/core.js';
import { normalize } from './requested-time/devanagari.js';
import { chronoMentions } from './requested-time/english.js';
import { isHindi, patternMentions } from './requested-time/hinglish.js';

export type { EnglishReader, RequestedKind, RequestedTime } from './requested-time/core.js';

/**
 * The callback time asked for in `text`, read in `zone` from `referenceMs` (the end of the
 * call). `english` chooses the reader of English text (default: both, which must agree).
 */
export function requestedTime(text: string, referenceMs: number, zone: string, o: { english?: EnglishReader } = {}): RequestedTime {
  const n = normalize(text);
  const ref = reference(referenceMs, zone);
  const fallback = () => callbackSentence(text);
  const own = () => resolve(present(patternMentions(n.text, ref), n), ref, n.original, fallback);
  const english = o.english ?? 'both';
  if (english === 'own' || isHindi(n)) return own();
  const chrono = resolve(present(chronoMentions(text, n.text, ref), n), ref, n.original, fallback);
  if (english === 'chrono') return chrono;
  return agree(chrono, own(), zone);
}

/** chrono-node's reading and the patterns': one where the other read nothing, the same, or a person's call. */
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

