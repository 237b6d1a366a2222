/**
 * `sandbox --degrade`: the sandbox misbehaves on cue, so a run's guardrails can be tested
 * and shown. A rule such as `after=300,connect=0.2,country=US` makes every call placed
 * after the organization's 300th (counted from the sandbox's start, history seeded by
 * --seed-calls excluded) connect at 20% instead of the usual 68%, for US numbers only;
 * `failed=0.4` raises the failed share instead. The decision is a pure function of the
 * call's own seed, so it holds whenever the call's fate is worked out again.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { Rng } from './rng.js';
import { learnedFate } from './learned.js';
import { decideFate, personaOf, rngOf, type Fate } from './fate.js';
import type { Call, DegradeRule, Script, World } from './world.js';

export type { DegradeRule } from './world.js';


/** The sandbox's usual shares (fate.ts): connected 68%, unanswered 20%, failed 12%. */
const BASE_CONNECT = 0.68;
const BASE_FAILED = 0.12;
const BASE_NO_ANSWER = 0.2;

export function parseDegrade(spec: string): DegradeRule {
  const rule: DegradeRule = { after: 0 };
  const bad = (why: string) => new Error(`--degrade "${spec}": ${why} (for example after=300,connect=0.2,country=US)`);
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z_]+)=(.+)$/.exec(part);
    if (!m) throw bad(`"${part}" is not key=value`);
    const k = m[1]!;
    const v = m[2]!;
    if (k === 'after') {
      if (!/^\d+$/.test(v)) throw bad('after must be a whole number of calls');
      rule.after = Number(v);
    } else if (k === 'connect' || k === 'failed') {
      const n = Number(v.endsWith('%') ? v.slice(0, -1) : v) / (v.endsWith('%') ? 100 : 1);
      if (!Number.isFinite(n) || n < 0 || n > 1) throw bad(`${k} must be a share from 0 to 1 (or 0% to 100%)`);
      rule[k] = n;
    } else if (k === 'country') {
      if (!/^[A-Za-z]{2}$/.test(v)) throw bad('country must be a two-letter code such as US or IN');
      rule.country = v.toUpperCase();
    } else {
      throw bad(`unknown key "${k}" (keys: after, connect, failed, country)`);
    }
  }
  if (rule.connect === undefined && rule.failed === undefined) throw bad('say connect=SHARE or failed=SHARE');
  if ((rule.connect ?? 0) + (rule.failed ?? 0) > 1) throw bad('connect and failed add up to more than 1');
  return rule;
}

export function describeDegrade(r: DegradeRule): string {
  const what = [r.connect !== undefined ? `connect ${Math.round(r.connect * 100)}%` : '', r.failed !== undefined ? `failed ${Math.round(r.failed * 100)}%` : ''].filter(Boolean).join(', ');
  return `${what} after call ${r.after}${r.country ? ` for ${r.country} numbers` : ''}`;
}

const countryCache = new Map<string, string | undefined>();
function countryOf(phone: string): string | undefined {
  if (countryCache.has(phone)) return countryCache.get(phone);
  const c = parsePhoneNumberFromString(phone)?.country;
  if (countryCache.size > 100_000) countryCache.clear();
  countryCache.set(phone, c);
  return c;
}

/**
 * The fate of call number `seq` once a rule applies. The sandbox only lowers the connect
 * share (a connected call can be made unanswered or failed; an unanswered one cannot be
 * made to connect, since its conversation was never drawn): with the usual shares C0, N0,
 * F0 and the asked c and f, a connected call stays connected with chance c/C0; when f is
 * above F0, every call leaving "connected" and every unanswered call fails with the same
 * chance r = (f - F0) / (C0 - c + N0); when f is below F0, a failed call becomes
 * unanswered with chance (F0 - f) / F0. The shares come out exactly c, f and 1 - c - f.
 */
export function degradeFate(rules: readonly DegradeRule[], fate: Fate, seq: number, phone: string, seed: string): Fate {
  const rule = rules.find((r) => seq > r.after && (!r.country || countryOf(phone) === r.country));
  if (!rule) return fate;
  const rng = new Rng(`degrade:${seed}:${seq}:${phone}`);
  const c = Math.min(BASE_CONNECT, rule.connect ?? BASE_CONNECT * ((1 - rule.failed!) / (1 - BASE_FAILED)));
  const f = Math.min(1 - c, rule.failed ?? BASE_FAILED);
  const r = f > BASE_FAILED ? (f - BASE_FAILED) / (BASE_CONNECT - c + BASE_NO_ANSWER) : 0;
  const x = rng.next();
  const y = rng.next();
  let status: Fate['status'] = fate.status;
  if (fate.status === 'completed') {
    if (x < c / BASE_CONNECT) return fate;
    status = y < r ? 'failed' : 'no_answer';
  } else if (fate.status === 'no_answer') {
    if (y < r) status = 'failed';
  } else if (f < BASE_FAILED && y < (BASE_FAILED - f) / BASE_FAILED) {
    status = 'no_answer';
  }
  if (status === fate.status) return fate;
  if (status === 'failed') {
    return { status: 'failed', end_reason: 'carrier_rejected', outcome: 'failed', error: 'The carrier rejected the call.', duration: rng.int(1, 6), recording_delay: null };
  }
  return { status: 'no_answer', end_reason: 'no_answer', outcome: 'no_answer', error: null, duration: rng.int(25, 35), recording_delay: null };
}

/**
 * A live call's fate: the seeded draw, a test persona's if it names one, else the
 * learned rates (--learn) and then the --degrade rules (never over a persona, which a
 * test asked for by name).
 */
export function liveFate(world: World, orgId: string, call: Call, script: Script): { fate: Fate; rng: ReturnType<typeof rngOf> } {
  const rng = rngOf(world, orgId, call);
  const persona = personaOf(call.contact.extra);
  let fate = decideFate(rng, script, persona);
  if (persona) return { fate, rng };
  if (world.learned) fate = learnedFate(rng, world.learned, countryOf(call.phone_number), new Date(call._start).getUTCHours(), fate);
  if (world.degrade.length === 0) return { fate, rng };
  return { fate: degradeFate(world.degrade, fate, call._seed, call.phone_number, `${world.seed}:${orgId}`), rng };
}
