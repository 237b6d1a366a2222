import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { parseDegrade } from '../../src/sandbox/degrade.js';
import { allCalls, campaignDone, contacts, givenAgent, givenCampaign, sandbox, type Client } from './helpers.js';

describe('sandbox --degrade rules', () => {
  it('reads after, connect, failed and country, and refuses what it cannot read', () => {
    expect(parseDegrade('after=300,connect=0.2,country=us')).toEqual({ after: 300, connect: 0.2, country: 'US' });
    expect(parseDegrade('failed=40%')).toEqual({ after: 0, failed: 0.4 });
    expect(() => parseDegrade('after=300')).toThrow(/connect=SHARE or failed=SHARE/);
    expect(() => parseDegrade('connect=1.5')).toThrow(/share from 0 to 1/);
    expect(() => parseDegrade('connect=0.5,failed=0.6')).toThrow(/more than 1/);
    expect(() => parseDegrade('after=ten,connect=0.1')).toThrow(/whole number/);
    expect(() => parseDegrade('country=USA,connect=0.1')).toThrow(/two-letter/);
    expect(() => parseDegrade('speed=2')).toThrow(/unknown key "speed"/);
  });
});

/** US numbers (+1 212 555 01xx style, valid NANP) and Indian ones, alternating. */
function mixed(n: number) {
  const india = contacts(n);
  return india.map((c, i) => (i % 2 ? { ...c, phone_number: `+1212${String(2_000_000 + i).slice(-7)}` } : c));
}

describe('a sandbox whose US answers collapse after 200 calls', () => {
  let sb: Sandbox;
  let api: Client;
  let calls: any[];
  beforeAll(async () => {
    ({ sb, api } = await sandbox({ degrade: [parseDegrade('after=200,connect=0.1,country=US')] }));
    const agent = await givenAgent(api);
    const first = await givenCampaign(api, agent.id, mixed(200), undefined, 'before');
    await api('POST', `/campaigns/${first.id}/launch`);
    await campaignDone(api, first.id);
    const second = await givenCampaign(api, agent.id, mixed(1000), undefined, 'after');
    await api('POST', `/campaigns/${second.id}/launch`);
    await campaignDone(api, second.id);
    calls = await allCalls(api, '');
  }, 60_000);
  afterAll(() => sb?.close());

  const rate = (list: any[]) => list.filter((c) => c.status === 'completed').length / list.length;

  it('leaves the Indian numbers as they were, before and after the 200th call', () => {
    const india = calls.filter((c) => c.phone_number.startsWith('+91'));
    expect(india).toHaveLength(600);
    expect(rate(india)).toBeGreaterThan(0.6);
    expect(rate(india)).toBeLessThan(0.76);
  });

  it('connects US numbers at the asked share after the 200th call, and their transcripts are empty', async () => {
    const campaigns = new Map<string, any[]>();
    for (const c of calls) campaigns.set(c.campaign_id, [...(campaigns.get(c.campaign_id) ?? []), c]);
    const [early, late] = [...campaigns.values()].sort((a, b) => a.length - b.length);
    const usEarly = early!.filter((c) => c.phone_number.startsWith('+1'));
    const usLate = late!.filter((c) => c.phone_number.startsWith('+1'));
    expect(rate(usEarly)).toBeGreaterThan(0.5);
    expect(rate(usLate)).toBeGreaterThan(0.05);
    expect(rate(usLate)).toBeLessThan(0.16);
    const dropped = usLate.find((c) => c.status !== 'completed')!;
    const detail = (await api('GET', `/calls/${dropped.call_id}`)).body;
    expect(detail.status).toBe(dropped.status);
    expect(detail.transcript).toEqual([]);
  });
});
