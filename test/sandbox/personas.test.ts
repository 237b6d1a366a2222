/**
 * extra.sandbox_persona: a test contact's call goes the way its persona says, whatever
 * the seed; an agent asked to disclose says it is an AI; a Hindi agent speaks Devanagari.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { campaignDone, clientFor, givenAgent } from '../helpers/given.js';

const PERSONAS = ['interested', 'busy', 'opt_out', 'no_answer', 'wrong_language'];
const WANT: Record<string, [string, string]> = {
  interested: ['completed', 'requirements_gathered'],
  busy: ['completed', 'callback_scheduled'],
  opt_out: ['completed', 'do_not_call'],
  no_answer: ['no_answer', 'no_answer'],
  wrong_language: ['completed', 'information_provided'],
};

let sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const sb of sandboxes) await sb.close();
  sandboxes = [];
});

async function run(seed: number, agent: Record<string, unknown>): Promise<any[]> {
  const sb = await startSandbox({ port: 0, timeScale: 600, seed });
  sandboxes.push(sb);
  const api = clientFor(sb);
  const a = await givenAgent(api, agent);
  const contacts = PERSONAS.map((p, i) => ({ phone_number: `+9198200000${10 + i}`, name: `Test ${p}`, extra: { sandbox_persona: p } }));
  const c = await api('POST', '/campaigns/json', { name: 'personas', agent_id: a.id, contacts });
  await api('POST', `/campaigns/${c.body.id}/launch`);
  await campaignDone(api, c.body.id);
  const list = (await api('GET', `/calls?campaign_id=${c.body.id}&limit=50`)).body.calls as any[];
  return Promise.all(list.map(async (call) => (await api('GET', `/calls/${call.call_id}`)).body));
}

describe('sandbox personas', () => {
  it('end each call as the persona says, with any seed', async () => {
    for (const seed of [1, 2, 3]) {
      const calls = await run(seed, {});
      for (const call of calls) {
        const persona = call.contact.extra.sandbox_persona as string;
        expect([call.status, call.outcome], `${persona}, seed ${seed}`).toEqual(WANT[persona]);
        expect(call.transcript.length > 0).toBe(call.status === 'completed');
      }
      const optOut = calls.find((c) => c.contact.extra.sandbox_persona === 'opt_out');
      expect(optOut.transcript.some((t: any) => t.role === 'user' && /do not call/i.test(t.text))).toBe(true);
    }
  });

  it('an agent asked to disclose says it is an AI in its first turn; others do not', async () => {
    const told = await run(4, { prompt: 'Disclose that you are an AI. Confirm interest.' });
    const not = await run(4, {});
    const first = (calls: any[]) => calls.filter((c) => c.status === 'completed').map((c) => c.transcript[0].text as string);
    expect(first(told).every((t) => t.includes('I am an AI assistant'))).toBe(true);
    expect(first(not).some((t) => t.includes('AI'))).toBe(false);
  });

  it('a Hindi agent speaks Devanagari, and follows a wrong_language contact into English', async () => {
    const calls = await run(5, { voice_name: 'Priya', language: 'hi-IN', greeting: 'नमस्ते, मैं प्रिया बोल रही हूँ।', prompt: 'Disclose that you are an AI.' });
    for (const call of calls.filter((c) => c.status === 'completed')) {
      const agentTurns = call.transcript.filter((t: any) => t.role === 'agent').map((t: any) => t.text as string);
      expect(agentTurns[0]).toContain('मैं एक AI सहायक हूँ');
      const later = agentTurns.slice(1).join(' ');
      if (call.contact.extra.sandbox_persona === 'wrong_language') expect(later).not.toMatch(/[\u0900-\u097F]/);
      else expect(later).toMatch(/^[\u0900-\u097F\s\p{P}A-Z]+$/u);
    }
  });
});
