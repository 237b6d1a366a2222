/**
 * What happens on one call, decided by its own seeded generator so --seed repeats
 * outcomes whatever order the calls finish in: answered, unanswered or failed; how long;
 * the outcome label; when the recording is saved.
 */
import { cyrb128, flat, Rng } from './rng.js';
import type { Call, Script, World } from './world.js';

export interface Fate {
  status: 'completed' | 'no_answer' | 'failed';
  end_reason: string;
  outcome: string | null;
  error: string | null;
  /** Seconds from dialing to hang-up. */
  duration: number;
  /** Seconds from hang-up until the recording is saved (answered calls only). */
  recording_delay: number | null;
}

export function callRng(world: World, orgId: string, seq: number, phone: string): Rng {
  return new Rng(`${world.seed}:${orgId}:${seq}:${phone}`);
}

/** A call id derived from the same inputs as the call's generator: unique per organization and seq. */
export function callIdFor(world: World, orgId: string, seq: number, phone: string): string {
  const [a, b, c] = cyrb128(`id:${world.seed}:${orgId}:${seq}:${phone}`);
  return flat(`call_${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}${c.toString(16).padStart(8, '0')}`);
}

export function rngOf(world: World, orgId: string, call: Call): Rng {
  return callRng(world, orgId, call._seed, call.phone_number);
}

const ERRORS = [
  ['number_unreachable', 'The number is unreachable or switched off.'],
  ['carrier_rejected', 'The carrier rejected the call.'],
  ['network_error', 'The call dropped before it connected.'],
  ['invalid_number', 'The number is not in service.'],
] as const;

/** Outcome labels and their weights; some need the agent's tools. */
function outcomes(script: Script): Array<[string, number]> {
  const list: Array<[string, number]> = [
    ['requirements_gathered', 34],
    ['information_provided', 14],
    ['not_interested', 20],
    ['wrong_number', 4],
    ['do_not_call', 3],
  ];
  if (script.tools.includes('schedule_callback')) list.push(['callback_scheduled', 16]);
  if (script.tools.includes('take_message')) list.push(['message_taken', 10]);
  return list;
}

/**
 * What a test contact asks the sandbox to be (`extra.sandbox_persona`), so a scenario's
 * calls end the same way every run. Only the sandbox reads it; the real service does not.
 */
export const PERSONAS = ['interested', 'busy', 'opt_out', 'no_answer', 'wrong_language'] as const;
export type Persona = (typeof PERSONAS)[number];

export function personaOf(extra: unknown): Persona | undefined {
  if (!extra || typeof extra !== 'object' || Array.isArray(extra)) return undefined;
  const p = (extra as Record<string, unknown>).sandbox_persona;
  return typeof p === 'string' && (PERSONAS as readonly string[]).includes(p) ? (p as Persona) : undefined;
}

/**
 * The first draws of a call's generator; the transcript continues from the same generator.
 * A persona overrides the drawn fate (after the same draws, so the rest of the call's
 * words come from the same place in the sequence).
 */
export function decideFate(rng: Rng, script: Script, persona?: Persona): Fate {
  const drawn = drawFate(rng, script);
  if (!persona) return drawn;
  const talk = rng.int(60, 180);
  const short = rng.int(40, 90);
  const recording_delay = rng.int(5, 50);
  switch (persona) {
    case 'interested':
      return { status: 'completed', end_reason: 'completed', outcome: 'requirements_gathered', error: null, duration: talk, recording_delay };
    case 'busy':
      return { status: 'completed', end_reason: 'completed', outcome: 'callback_scheduled', error: null, duration: talk, recording_delay };
    case 'opt_out':
      return { status: 'completed', end_reason: 'user_hangup', outcome: 'do_not_call', error: null, duration: short, recording_delay };
    case 'wrong_language':
      return { status: 'completed', end_reason: 'completed', outcome: 'information_provided', error: null, duration: short, recording_delay };
    case 'no_answer':
      return { status: 'no_answer', end_reason: 'no_answer', outcome: 'no_answer', error: null, duration: 30, recording_delay: null };
  }
}

function drawFate(rng: Rng, script: Script): Fate {
  const r = rng.next();
  if (r < 0.68) {
    const choices = outcomes(script);
    const total = choices.reduce((n, [, w]) => n + w, 0);
    let x = rng.next() * total;
    let outcome = choices[0]![0];
    for (const [label, w] of choices) {
      if ((x -= w) < 0) {
        outcome = label;
        break;
      }
    }
    const short = outcome === 'wrong_number' || outcome === 'do_not_call' || outcome === 'not_interested';
    const duration = short ? rng.int(40, 90) : rng.int(60, 240);
    return {
      status: 'completed',
      end_reason: outcome === 'not_interested' || outcome === 'do_not_call' ? 'user_hangup' : 'completed',
      outcome,
      error: null,
      duration,
      recording_delay: rng.int(5, 50),
    };
  }
  if (r < 0.88) {
    // The spec types outcome as a string: a call nobody answered still has one.
    return { status: 'no_answer', end_reason: 'no_answer', outcome: 'no_answer', error: null, duration: rng.int(25, 35), recording_delay: null };
  }
  const [code, message] = rng.pick(ERRORS);
  return { status: 'failed', end_reason: code, outcome: 'failed', error: message, duration: rng.int(1, 6), recording_delay: null };
}
