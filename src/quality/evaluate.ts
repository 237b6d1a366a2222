/**
 * One call against one rule: pass, fail or skip (the rule does not apply: a `where`
 * filter, a call with no transcript to read), with the reason and, for a failure in the
 * words, the turn that failed. Pure except for the judge, which runs the user's program.
 */
import type { Call, TranscriptTurn } from '../api/calls.js';
import { insideAll, localTime, type HoursWindow } from '../hours/calling-hours.js';
import { zonesForNumber } from '../hours/phone-zones.js';
import type { Rule } from './rules.js';
import { scriptFor } from './rules.js';
import { firstMatch, MatchTimeout } from './match.js';

export type Outcome = 'pass' | 'fail' | 'skip';

export interface Verdict {
  rule: string;
  call_id: string;
  verdict: Outcome;
  message?: string;
  /** Index into the transcript of the turn that failed. */
  turn?: number;
}

export interface Environment {
  /** The agent's configured language (BCP 47), when it can be known. */
  language(call: Call): Promise<string | undefined>;
  /** The default calling-hours window (the profile's, else 09:00-21:00). */
  window: HoursWindow;
  /** For not_suppressed: where the number is listed, by rule id. */
  suppressed(ruleId: string, phone: string): string | undefined;
  /** For judge: runs the command once; true is a pass. */
  judge(rule: Extract<Rule, { kind: 'judge' }>, call: Call, run: number): Promise<{ pass: boolean; reason: string }>;
  /** Opt-out requests found, for --harvest-dnc. */
  optedOut(call: Call): void;
}

export function applies(rule: Rule, call: Call): boolean {
  const w = rule.where;
  if (!w) return true;
  if (w.agent && !w.agent.some((a) => a === call.agent_name || a === call.agent_id)) return false;
  if (w.outcome && !w.outcome.includes(String(call.outcome ?? ''))) return false;
  if (w.status && !w.status.includes(String(call.status ?? ''))) return false;
  return true;
}

function turnsOf(call: Call): TranscriptTurn[] {
  return Array.isArray(call.transcript) ? call.transcript : [];
}

const text = (t: TranscriptTurn | undefined) => (typeof t?.text === 'string' ? t.text : '');

const NOT_LETTER = /[^\p{L}]/gu;
const NOT_IN_SCRIPT = new Map<string, RegExp>();

/** Everything that is not a letter of `script`, to be removed before counting what is left. */
function notInScript(script: string): RegExp {
  let re = NOT_IN_SCRIPT.get(script);
  if (!re) NOT_IN_SCRIPT.set(script, (re = new RegExp(`[^\\p{Script=${script}}]`, 'gu')));
  return re;
}

export async function evaluate(rule: Rule, call: Call, env: Environment): Promise<Verdict> {
  const v = (verdict: Outcome, message?: string, turn?: number): Verdict => {
    const out: Verdict = { rule: rule.id, call_id: call.call_id, verdict };
    if (message !== undefined) out.message = message;
    if (turn !== undefined) out.turn = turn;
    return out;
  };
  if (!applies(rule, call)) return v('skip', 'not selected by where');
  try {
    return await verdictOf(rule, call, env, v);
  } catch (err) {
    if (!(err instanceof MatchTimeout)) throw err;
    // Undecided is not a pass: the call fails the rule, and the message names the pattern and the turn.
    return v('fail', `${err.message} on turn ${err.index + 1} and was stopped: not decided (nested repetition such as (a+)+ can take forever on some text; rewrite the pattern)`, err.index);
  }
}

type VerdictOf = (verdict: Outcome, message?: string, turn?: number) => Verdict;

/** Indexes of the turns `keep` selects, and their texts. */
function select(turns: TranscriptTurn[], keep: (t: TranscriptTurn) => boolean): { at: number[]; texts: string[] } {
  const at: number[] = [];
  const texts: string[] = [];
  turns.forEach((t, i) => {
    if (keep(t)) {
      at.push(i);
      texts.push(text(t));
    }
  });
  return { at, texts };
}

async function verdictOf(rule: Rule, call: Call, env: Environment, v: VerdictOf): Promise<Verdict> {
  const turns = turnsOf(call);
  switch (rule.kind) {
    case 'first_agent_turn_matches': {
      if (turns.length === 0) return v('skip', 'no transcript');
      const i = turns.findIndex((t) => t.role === 'agent');
      if (i < 0) return v('fail', 'the agent never spoke');
      try {
        return firstMatch([rule.pattern], [text(turns[i])]) ? v('pass') : v('fail', `the first agent turn does not match /${rule.pattern.source}/`, i);
      } catch (err) {
        if (err instanceof MatchTimeout) throw new MatchTimeout(err.pattern, i);
        throw err;
      }
    }
    case 'never_says': {
      if (turns.length === 0) return v('skip', 'no transcript');
      const { at, texts } = select(turns, (t) => rule.role === 'any' || t.role === rule.role);
      // The first turn that says a phrase; a pattern counts only on an earlier turn (on the same turn the phrase is named).
      let phraseTurn = -1;
      let phrase: string | undefined;
      for (let k = 0; k < texts.length && phrase === undefined; k++) {
        const flat = texts[k]!.toLowerCase().replace(/\s+/g, ' ');
        phrase = rule.phrases.find((p) => flat.includes(p.toLowerCase().replace(/\s+/g, ' ')));
        if (phrase !== undefined) phraseTurn = k;
      }
      let m;
      try {
        m = firstMatch(rule.patterns, phraseTurn < 0 ? texts : texts.slice(0, phraseTurn));
      } catch (err) {
        if (err instanceof MatchTimeout) throw new MatchTimeout(err.pattern, at[err.index]!);
        throw err;
      }
      if (m) return v('fail', `${turns[at[m.index]!]!.role} said something matching /${rule.patterns[m.pattern]!.source}/`, at[m.index]);
      if (phrase !== undefined) return v('fail', `${turns[at[phraseTurn]!]!.role} said "${phrase}"`, at[phraseTurn]);
      return v('pass');
    }
    case 'opt_out_honoured': {
      if (turns.length === 0) return v('skip', 'no transcript');
      const user = select(turns, (t) => t.role === 'user');
      let m;
      try {
        m = firstMatch([rule.pattern], user.texts);
      } catch (err) {
        if (err instanceof MatchTimeout) throw new MatchTimeout(err.pattern, user.at[err.index]!);
        throw err;
      }
      if (!m) return v('pass', 'no opt-out request');
      const i = user.at[m.index]!;
      env.optedOut(call);
      const after = turns.map((t, j) => ({ t, j })).filter(({ t, j }) => j > i && t.role === 'agent');
      if (after.length > rule.withinTurns) {
        return v('fail', `the agent went on for ${after.length} turns after the opt-out request (at most ${rule.withinTurns})`, after[rule.withinTurns]!.j);
      }
      if (rule.outcomes && !rule.outcomes.includes(String(call.outcome ?? ''))) {
        return v('fail', `opt-out requested but the outcome is ${call.outcome ?? 'none'} (expected ${rule.outcomes.join(' or ')})`, i);
      }
      return v('pass');
    }
    case 'max_duration': {
      const d = call.duration_seconds;
      if (typeof d !== 'number') return v('skip', 'no duration');
      return d <= rule.seconds ? v('pass') : v('fail', `lasted ${d}s, more than ${rule.seconds}s`);
    }
    case 'outcome_in':
      return rule.outcomes.includes(String(call.outcome ?? '')) ? v('pass') : v('fail', `outcome ${call.outcome ?? 'none'} is not one of ${rule.outcomes.join(', ')}`);
    case 'language': {
      if (turns.length === 0) return v('skip', 'no transcript');
      const language = rule.language ?? await env.language(call);
      if (!language) return v('skip', 'the agent\'s language is not known');
      const script = scriptFor(language);
      if (!script) return v('skip', `no script known for ${language}`);
      const outside = notInScript(script);
      for (let i = 0; i < turns.length; i++) {
        if (turns[i]!.role !== 'agent') continue;
        const letters = text(turns[i]).replace(NOT_LETTER, '');
        if (letters.length === 0) continue;
        const share = letters.replace(outside, '').length / letters.length;
        if (share < rule.minShare) return v('fail', `agent turn is ${Math.round(share * 100)}% ${script} (${language} needs ${Math.round(rule.minShare * 100)}%)`, i);
      }
      return v('pass');
    }
    case 'within_calling_hours': {
      const ms = Date.parse(String(call.start_time ?? ''));
      if (!Number.isFinite(ms)) return v('skip', 'no start time');
      if (!call.phone_number) return v('skip', 'no phone number');
      const zones = zonesForNumber(call.phone_number);
      if (zones.length === 0) return v('fail', `no time zone is known for ${call.phone_number}`);
      const w = rule.window ?? env.window;
      if (insideAll(zones, w, ms)) return v('pass');
      return v('fail', `started at ${zones.map((z) => `${localTime(z, ms)} ${z}`).join(', ')}, outside calling hours`);
    }
    case 'not_suppressed': {
      if (!call.phone_number) return v('skip', 'no phone number');
      const where = env.suppressed(rule.id, call.phone_number);
      return where ? v('fail', `${call.phone_number} is on ${where}`) : v('pass');
    }
    case 'judge': {
      let passes = 0;
      let fails = 0;
      let reason = '';
      for (let run = 1; run <= rule.repeat; run++) {
        const r = await env.judge(rule, call, run);
        if (r.pass) passes++;
        else {
          fails++;
          reason = r.reason || reason;
        }
        // Decided either way: the runs left cannot change it.
        if (passes >= rule.pass || fails > rule.repeat - rule.pass) break;
      }
      const tally = rule.repeat > 1 ? ` (${passes} of ${passes + fails} runs passed, ${rule.pass} needed)` : '';
      return passes >= rule.pass ? v('pass', tally ? tally.trim().replace(/^\(|\)$/g, '') : undefined) : v('fail', `${reason || 'the judge said fail'}${tally}`);
    }
  }
}
