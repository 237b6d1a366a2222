/**
 * Outcome classes: what a call came to, grouped for people who read the report. One class
 * per call, one palette per class (the page's charts, table and legend all use it).
 *
 * - no contact: the call never reached a person (any status other than `completed`);
 * - failure: a person was reached and said no, or was the wrong person;
 * - neutral: a person was reached and something is left to do (a callback, a message);
 * - success: a person was reached and the call did its job; the default for a connected
 *   call whose outcome says neither no nor later, since the spec's list of outcomes is open.
 */
export type OutcomeClass = 'success' | 'neutral' | 'failure' | 'no_contact';

export const CLASSES: ReadonlyArray<{ id: OutcomeClass; label: string }> = [
  { id: 'success', label: 'Success' },
  { id: 'neutral', label: 'Neutral' },
  { id: 'failure', label: 'Failure' },
  { id: 'no_contact', label: 'No contact' },
];

const FAILURE = /(^|_)(not_interested|uninterested|wrong_number|do_not_call|dnc|declined|refused|rejected|opt(ed)?_out|unsubscribe[d]?|hostile|abusive|complaint|lost)($|_)/;
const NEUTRAL = /(^|_)(callback|call_back|message|voicemail|later|busy|follow_up|followup|undecided|maybe|transferred|escalated|no_decision|unknown)($|_)/;

export function outcomeClass(status: string, outcome: string): OutcomeClass {
  if (status !== 'completed') return 'no_contact';
  const o = outcome.toLowerCase().replace(/[\s-]+/g, '_');
  if (FAILURE.test(o)) return 'failure';
  if (NEUTRAL.test(o)) return 'neutral';
  return 'success';
}

/** A callback the customer asked for: the outcome says so (`callback_scheduled`, `call_back_requested`). */
export const isCallback = (outcome: string): boolean => /call_?back/.test(outcome.toLowerCase().replace(/[\s-]+/g, '_'));
