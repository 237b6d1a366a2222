/**
 * The filter before chrono-node (english.ts: only clauses with a word of time are parsed)
 * leaves out only clauses chrono reads nothing in: over the corpus of callback phrasings
 * and summaries as agents write them (names such as Sharma and Kumar, and words such as
 * "phone", "listen" and "decided" hold the letters of a month or a number), the mentions
 * are the same as when every clause is parsed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reference } from '../../src/reports/requested-time/core.js';
import { normalize } from '../../src/reports/requested-time/devanagari.js';
import { chronoMentions } from '../../src/reports/requested-time/english.js';

const corpus = readFileSync(new URL('../fixtures/requested-times.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'))
  .map((l) => l.split(' | ').slice(3).join(' | '));

const NAMES = ['Priya Sharma', 'Arun Kumar', 'Omar Sheikh', 'Maya Decosta', 'Junaid Khan', 'Joseph Octavio', 'Tom Evans', 'Minal Tendulkar'];
const WHENS = ['tomorrow morning', 'tomorrow at 4 pm', 'this evening after 6', 'on Monday', 'next week', 'on Friday afternoon', 'on the 3rd of March', 'in two hours'];
const summaries = NAMES.flatMap((who, i) => [
  `${who} was busy and asked to be called back ${WHENS[i]}. The agent scheduled the callback.`,
  `${who} said they were not interested (home loans) and ended the call.`,
  `${who} could not talk and left a message for the team. The agent took it down.`,
  `The person who answered the phone said ${who} cannot be reached at this number; they decided to listen later.`,
  `${who} had questions about the call (a credit card offer). The agent answered them and someone will follow up.`,
]);

describe('the filter before chrono-node', () => {
  it.each([
    ['Asia/Kolkata', '2026-11-26T05:30:00Z'],
    ['America/New_York', '2026-03-07T15:00:00Z'],
  ])('drops only clauses chrono reads nothing in (%s)', (zone, end) => {
    const ref = reference(Date.parse(end), zone);
    const texts = [...corpus, ...summaries];
    expect(texts.length).toBeGreaterThan(350);
    for (const text of texts) {
      const t = normalize(text).text;
      expect(chronoMentions(text, t, ref), text).toEqual(chronoMentions(text, t, ref, { everyClause: true }));
    }
  });
});
