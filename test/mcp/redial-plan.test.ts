/**
 * campaign_redial with at_requested_time through the SDK's Client: a campaign's callbacks
 * (said in English, Hinglish and Devanagari, one in New York, one with no time, one with two
 * times) become the plan of the run that calls each back at the time asked for: the waves
 * with their contacts, the callbacks without a readable time, and the command a person
 * runs. Nothing is created, launched or written; the plan is the one the CLI's dry run shows.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientFor, givenAgent, givenCampaign, plantCallbacks } from '../helpers/given.js';
import { requestedTime } from '../../src/reports/requested-time.js';
import { mcpForFile, textOf } from './client.js';

/** The calls ended two hours ago, so "tomorrow" is a day ahead of now in both zones. */
const END = Date.now() - 2 * 3_600_000;
const CALLBACKS = [
  { phone_number: '+919876500001', summary: 'Customer asked to be called tomorrow at 4 pm.' },
  { phone_number: '+919876500002', summary: 'Kal shaam 4 baje call karna.' },
  { phone_number: '+919876500003', summary: 'परसों शाम ५ बजे कॉल कीजिए।' },
  { phone_number: '+12125550123', summary: 'Customer prefers tomorrow evening at 7.' },
  { phone_number: '+919876500004', summary: 'The customer was driving and asked to be called back later.' },
  { phone_number: '+919876500005', summary: 'Customer said tomorrow at 4 or Friday at 11, whichever suits the team.' },
];
const zoneOf = (phone: string) => (phone.startsWith('+1') ? 'America/New_York' : 'Asia/Kolkata');
/** Each callback's requested instant as the follow-up reader reads it (its own tests hold the reading to a corpus). */
const asked = new Map(CALLBACKS.map((c) => [c.phone_number, requestedTime(c.summary, END, zoneOf(c.phone_number)).at]));

let id = '';
const w = mcpForFile({
  prefix: 'voicectl-mcp-redial-',
  flags: ['--allow-write'],
  sandbox: { timeScale: 1 },
  given: async (h) => {
    const api = clientFor(h.sandbox);
    const agent = await givenAgent(api, { name: 'Callbacks desk' });
    id = (await givenCampaign(api, agent.id, CALLBACKS.map((c, i) => ({ phone_number: c.phone_number, name: `Person ${i + 1}` })), undefined, 'Renewals')).id;
    plantCallbacks(h.sandbox, id, CALLBACKS.map((c) => ({ ...c, end: END })));
  },
});

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;

describe('campaign_redial with at_requested_time', () => {
  it('the reader found a time for the four that said one, and none for the other two', () => {
    for (const p of ['+919876500001', '+919876500002', '+919876500003', '+12125550123']) expect(asked.get(p), p).toBeGreaterThan(Date.now());
    expect(asked.get('+919876500001')).toBe(asked.get('+919876500002'));
    expect(asked.get('+919876500004')).toBeUndefined();
    expect(asked.get('+919876500005')).toBeUndefined();
  });

  it('answers the run\'s plan: waves by time with their contacts, the unread callbacks, the command; it launches nothing', async () => {
    const before = w.h.sandbox.requests.filter((q) => q.method !== 'GET').length;
    const r = await w.mcp.client.callTool({ name: 'campaign_redial', arguments: { campaign_id: id, outcome: ['callback_scheduled'], at_requested_time: true, calling_hours: '09:00-21:00' } });
    expect(r.isError, textOf(r)).toBeFalsy();
    const plan = r.structuredContent as any;
    expect(plan).toMatchObject({ outcome: 'plan', started: false, source_campaign: { id, name: 'Renewals' }, contacts: 4 });
    expect(plan.command).toBe(`voicectl campaign redial ${id} --outcome callback_scheduled --calling-hours 09:00-21:00 --at-requested-time`);

    // Each contact in the first wave released at or after its time; the waves in time order.
    const waves = plan.waves as Array<{ n: number; at: string; contacts: Array<{ phone_number: string; requested_time: string; zone: string; requested_as?: string }> }>;
    expect(waves.map((x) => x.n)).toEqual(waves.map((_, i) => i + 1));
    for (let i = 1; i < waves.length; i++) expect(Date.parse(waves[i]!.at)).toBeGreaterThan(Date.parse(waves[i - 1]!.at));
    const waveOf = new Map(waves.flatMap((x) => x.contacts.map((c) => [c.phone_number, x] as const)));
    expect([...waveOf.keys()].sort()).toEqual(['+12125550123', '+919876500001', '+919876500002', '+919876500003']);
    for (const x of waves) {
      expect(x.at).toMatch(ISO_WITH_OFFSET);
      for (const c of x.contacts) {
        expect(c.requested_time).toMatch(ISO_WITH_OFFSET);
        expect(Date.parse(c.requested_time)).toBe(asked.get(c.phone_number));
        expect(Date.parse(x.at)).toBeGreaterThanOrEqual(Date.parse(c.requested_time));
        expect(c.zone).toBe(zoneOf(c.phone_number));
      }
    }
    // Asked for the same time: one wave, released at that time.
    expect(waveOf.get('+919876500001')).toBe(waveOf.get('+919876500002'));
    expect(Date.parse(waveOf.get('+919876500001')!.at)).toBe(asked.get('+919876500001'));
    expect(waveOf.get('+919876500001')!.contacts.find((c) => c.phone_number === '+919876500002')).toMatchObject({ requested_as: expect.stringMatching(/kal shaam 4 baje/i) });
    // New York's evening is its own offset.
    expect(waveOf.get('+12125550123')!.contacts[0]!.requested_time).toMatch(/T19:00:00-0[45]:00$/);

    expect(plan.unread.map((u: { phone_number: string }) => u.phone_number).sort()).toEqual(['+919876500004', '+919876500005']);
    expect(plan.unread.find((u: { phone_number: string }) => u.phone_number === '+919876500005')).toMatchObject({ conflict: true });

    expect(w.h.sandbox.requests.filter((q) => q.method !== 'GET').length).toBe(before);
    expect(readdirSync(w.dir)).toEqual([]);
  });

  it('is the plan the CLI\'s dry run shows for the same command', async () => {
    const r = await w.mcp.client.callTool({ name: 'campaign_redial', arguments: { campaign_id: id, outcome: ['callback_scheduled'], at_requested_time: true, calling_hours: '09:00-21:00' } });
    const plan = r.structuredContent as any;
    const cli = await w.h.run(['campaign', 'redial', id, '--outcome', 'callback_scheduled', '--calling-hours', '09:00-21:00', '--at-requested-time', '--dry-run', '--json']);
    expect(cli.exitCode, cli.stderr).toBe(0);
    const dry = JSON.parse(cli.stdout);
    expect(plan.waves.map((x: { at: string; contacts: unknown[] }) => [Date.parse(x.at), x.contacts.length]))
      .toEqual(dry.forecast.waves.map((x: { at: string; contacts: number }) => [Date.parse(x.at), x.contacts]));
    expect(plan.policy).toEqual(dry.policy);
  });

  it('refuses what the verb refuses, in the CLI\'s words, and a wave size without at_requested_time', async () => {
    const zero = await w.mcp.client.callTool({ name: 'campaign_redial', arguments: { campaign_id: id, at_requested_time: true, exclude_called_within: 'soon' } });
    expect(zero.isError).toBe(true);
    expect(textOf(zero)).toMatch(/expected a span such as 7d[^]*exit code 2/);
    const missing = await w.mcp.client.callTool({ name: 'campaign_redial', arguments: { campaign_id: 'no-such-campaign', at_requested_time: true } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/no campaign with id no-such-campaign[^]*exit code/);
    const wave = await w.mcp.client.callTool({ name: 'campaign_redial', arguments: { campaign_id: id, wave_size: 10 } });
    expect(wave.isError).toBe(true);
    expect(textOf(wave)).toMatch(/wave_size goes with at_requested_time/);
  });
});
