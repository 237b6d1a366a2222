import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../helpers/rng.js';
import { learn, LearnError } from '../../src/sandbox/learned.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { allCalls, campaignDone, givenAgent, givenCampaign, sandbox, type Client } from './helpers.js';

const FIRST = ['Aarav', 'Priya', 'Rohan', 'Meera', 'John', 'Emily', 'Carlos', 'Sana'];
const LAST = ['Sharma', 'Iyer', 'Nair', 'Smith', 'Garcia', 'Khan', 'Patel', 'Brown'];

/** An account's export: 6,000 calls, India and the US, 04:00 to 13:00 UTC, with its own rates. */
function accountExport(): { text: string; phones: string[]; names: string[]; connect: number; medianTalk: number } {
  const r = rng(42);
  const lines: string[] = [];
  const phones: string[] = [];
  const names: string[] = [];
  const talks: number[] = [];
  let connected = 0;
  for (let i = 0; i < 6000; i++) {
    const india = r() < 0.6;
    const phone = india ? `+9197${String(10_000_000 + Math.floor(r() * 89_999_999)).slice(0, 8)}` : `+1646555${String(1000 + Math.floor(r() * 8999))}`;
    const name = `${FIRST[Math.floor(r() * 8)]} ${LAST[Math.floor(r() * 8)]}`;
    const hour = 4 + Math.floor(r() * 10);
    const start = Date.UTC(2026, 10, 1 + Math.floor(r() * 20), hour, Math.floor(r() * 60));
    const x = r();
    const status = x < (india ? 0.42 : 0.55) ? 'completed' : x < 0.92 ? 'no_answer' : 'failed';
    // Log-normal talk time around 95 s for connected calls; ringing for the rest.
    const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    const seconds = status === 'completed' ? Math.max(5, Math.round(95 * Math.exp(0.5 * z))) : 20 + Math.floor(r() * 20);
    if (status === 'completed') {
      connected++;
      talks.push(seconds);
    }
    phones.push(phone);
    names.push(name);
    lines.push(JSON.stringify({
      call_id: `call_${i}`, campaign_id: '5b1c2d3e-0000-4000-8000-000000000001', agent_id: 'a1', agent_name: 'Asha', direction: 'outbound',
      phone_number: phone, status, end_reason: status, outcome: status === 'completed' ? (r() < 0.3 ? 'callback_scheduled' : 'requirements_gathered') : status,
      summary: `Spoke with ${name} about the renewal.`, error: null, duration_seconds: seconds,
      start_time: new Date(start).toISOString(), end_time: new Date(start + seconds * 1000).toISOString(), has_recording: status === 'completed',
      contact: { name, extra: { lead_id: i, email: `${name.split(' ')[0]!.toLowerCase()}${i}@example.com` } },
    }));
  }
  talks.sort((a, b) => a - b);
  return { text: `${lines.join('\n')}\n`, phones, names, connect: connected / 6000, medianTalk: talks[talks.length >> 1]! };
}

describe('sandbox --learn', () => {
  const exp = accountExport();
  const { rates } = learn(exp.text, 'calls.jsonl');
  const file = JSON.stringify(rates, null, 2);

  it('keeps distributions only: none of the export\'s numbers, names, ids or summaries', () => {
    expect(rates.calls).toBe(6000);
    expect(Object.keys(rates.countries).sort()).toEqual(['IN', 'US']);
    for (const p of new Set(exp.phones)) expect(file).not.toContain(p);
    for (const p of new Set(exp.phones)) expect(file).not.toContain(p.slice(-8));
    for (const n of new Set(exp.names)) {
      for (const part of n.split(' ')) expect(file).not.toContain(part);
    }
    expect(file).not.toMatch(/call_\d|example\.com|renewal|2026-11/);
    // What is kept reads back as the same rates.
    expect(learn(file, 'rates.json').rates).toEqual(rates);
  });

  it('refuses a file that is not an export, naming the line', () => {
    expect(() => learn('{"call_id": 1, "status": "completed", "phone_number": "+919800000001"}\nnot json\n', 'x.jsonl')).toThrow(/x.jsonl: line 2 is not JSON/);
    expect(() => learn('{"a": 1}\n', 'x.jsonl')).toThrow(LearnError);
  });

  describe('a sandbox answering with them, over 5,000 calls', () => {
    let sb: Sandbox;
    let api: Client;
    let calls: any[];
    beforeAll(async () => {
      ({ sb, api } = await sandbox({ learned: rates, startAt: '2026-12-01T04:30:00.000Z' }));
      const agent = await givenAgent(api);
      const r = rng(7);
      // Five campaigns of 1,000, an hour of simulated time apart, with the export's mix of countries.
      for (let k = 0; k < 5; k++) {
        const contacts = Array.from({ length: 1000 }, (_, i) => ({
          phone_number: r() < 0.6 ? `+9198${String(10_000_000 + k * 1000 + i).slice(-8)}` : `+1212555${String(1000 + ((k * 1000 + i) % 9000)).padStart(4, '0')}`,
          name: `Lead ${i}`,
        }));
        const c = await givenCampaign(api, agent.id, contacts, undefined, `learned ${k}`);
        await api('POST', `/campaigns/${c.id}/launch`);
        await campaignDone(api, c.id);
        await new Promise((res) => setTimeout(res, (3_600_000 / 20_000)));
      }
      calls = await allCalls(api, '');
    }, 120_000);
    afterAll(() => sb?.close());

    it('connects within 2 points of the export, and talks for a median within 10% of it', () => {
      expect(calls).toHaveLength(5000);
      const connected = calls.filter((c) => c.status === 'completed');
      const rate = connected.length / calls.length;
      const talk = connected.map((c) => c.duration_seconds).sort((a, b) => a - b);
      const median = talk[talk.length >> 1];
      console.log(`learned: export connect ${(exp.connect * 100).toFixed(1)}%, sandbox ${(rate * 100).toFixed(1)}%; median talk ${exp.medianTalk} s vs ${median} s`);
      expect(Math.abs(rate - exp.connect)).toBeLessThanOrEqual(0.02);
      expect(Math.abs(median - exp.medianTalk) / exp.medianTalk).toBeLessThanOrEqual(0.1);
      expect(new Set(connected.map((c) => c.outcome))).toEqual(new Set(['callback_scheduled', 'requirements_gathered']));
    });
  });
});
