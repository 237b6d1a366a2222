import { describe, expect, it } from 'vitest';
import { MAX_PAGES, Poller, campaignState } from '../../src/watch/poller.js';
import { summarize } from '../../src/watch/summary.js';
import { FakeCampaign, type FakeOptions } from './fake-campaign.js';

/** Polls until the campaign completes and the counts agree, as the watch loop does. */
async function watchToEnd(opts: FakeOptions) {
  const fake = new FakeCampaign(opts);
  const source = fake.source();
  const poller = new Poller(source);
  const reported: string[] = [];
  const perTick: number[] = [];
  for (let tick = 0; tick < 10_000; tick++) {
    const r = await poller.tick();
    perTick.push(r.requests);
    reported.push(...r.finished.map((c) => c.call_id));
    if (campaignState(r.campaign, r.counts) === 'completed' && r.unaccounted === 0) {
      return { fake, poller, reported, perTick, last: r };
    }
  }
  throw new Error('never completed');
}

describe('Poller', () => {
  it.each<[string, FakeOptions]>([
    ['dialed a few per step', { contacts: 700, dialPerStep: 40 }],
    ['newest first', { contacts: 700, dialPerStep: 40, order: 'desc' }],
    ['all at once with one start time', { contacts: 1500, sameStart: true }],
    ['one start time, newest first', { contacts: 1500, sameStart: true, order: 'desc' }],
    ['long calls', { contacts: 600, dialPerStep: 300, callSteps: (i) => 1 + (i % 23) }],
    ['no contacts_by_status', { contacts: 450, dialPerStep: 100, omitCounts: true }],
  ])('reports every finished call exactly once (%s)', async (_name, opts) => {
    const { fake, reported, last, poller } = await watchToEnd(opts);
    expect(new Set(reported).size).toBe(reported.length);
    expect(reported.sort()).toEqual(fake.allCallIds().sort());
    const s = summarize(last.campaign as never, poller.tally);
    expect(s.calls).toBe(opts.contacts);
    expect(Object.values(s.outcomes).reduce((a, b) => a + b, 0)).toBe(opts.contacts);
  });

  it('keeps each running tick within 1 + 2 x MAX_PAGES requests for 10,000 contacts dialed at once', async () => {
    const { perTick, fake } = await watchToEnd({ contacts: 10_000, sameStart: true, callSteps: (i) => 1 + ((i * 13) % 40) });
    const running = perTick.slice(0, -1);
    expect(Math.max(...running)).toBeLessThanOrEqual(1 + 2 * MAX_PAGES);
    // Not every tick re-reads the whole listing: far fewer pages than ticks x 50.
    expect(fake.callRequests).toBeLessThan(perTick.length * 10);
  });

  it('reads only what is new: a steady campaign costs a few requests per tick', async () => {
    const { perTick } = await watchToEnd({ contacts: 2000, dialPerStep: 50 });
    const steady = perTick.slice(2, -2);
    const mean = steady.reduce((a, b) => a + b, 0) / steady.length;
    // Campaign, new calls, and a page or two of the in-progress window (about 150 calls).
    expect(mean).toBeLessThanOrEqual(4);
    expect(Math.max(...steady)).toBeLessThanOrEqual(5);
  });

  it('does not list calls while the campaign is a draft', async () => {
    const fake = new FakeCampaign({ contacts: 5, draftReads: 2 });
    const source = fake.source();
    const poller = new Poller(source);
    const r = await poller.tick();
    expect(campaignState(r.campaign, r.counts)).toBe('draft');
    expect(r.requests).toBe(1);
    expect(fake.callRequests).toBe(0);
  });
});

describe('campaignState', () => {
  it('reads status, and completion from the counts when status is missing', () => {
    expect(campaignState({ id: 'x', status: 'running' })).toBe('running');
    expect(campaignState({ id: 'x', status: 'Completed' })).toBe('completed');
    expect(campaignState({ id: 'x', status: 'cancelled' })).toBe('ended');
    expect(campaignState({ id: 'x', contacts_by_status: { pending: 0, initiated: 0, completed: 3 } })).toBe('completed');
    expect(campaignState({ id: 'x', contacts_by_status: { pending: 1, completed: 3 } })).toBe('running');
    expect(campaignState({ id: 'x' })).toBe('running');
  });
});
