/**
 * `campaign run --rehearse`: the run played on a sandbox inside voicectl. It needs no key;
 * with an account configured it sends that account nothing but reads (the request log of
 * a recording server says so); a three-zone, three-day run finishes with every call
 * inside its local window in simulated time, and `calls check` agrees with the journal;
 * the forecast stands beside what happened, as text and as JSON.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, type FakeServer } from './fake-server.js';
import { run } from '../../helpers/run.js';
import { sharedDir } from '../../helpers/temp.js';
import { localMinuteOf, threeZoneContacts, writeContacts } from '../../campaigns/run/sim.js';
import { rehearsalJournalPath, rehearsalScale } from '../../../src/campaigns/run/rehearse.js';

/** 08:00 in India: India's window (09:00-21:00) opens in an hour, London's at 09:00 UTC, New York's at 14:00 UTC. */
const INDIA_8AM = new Date('2026-12-01T02:30:00.000Z');
const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const DRAFT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const AGENT = { id: '3f1c2b7a-8d4e-4c1a-9b2f-6e5d4c3b2a19', name: 'Sales desk', voice_name: 'Ananya', language: 'en-IN', prompt: 'You renew policies.', greeting: 'Hello!' };

const files = sharedDir('voicectl-rehearse-');

describe('with an account configured', () => {
  let server: FakeServer;
  /** 200 finished calls of the agent: 80 connected (40%), 30 failed, in India and the US. */
  const calls = Array.from({ length: 200 }, (_, i) => ({
    call_id: `call_${i}`, agent_id: AGENT.id, campaign_id: 'c1',
    phone_number: i % 2 ? `+9198100${String(10_000 + i).slice(-5)}` : `+1415555${String(1000 + i)}`,
    status: i % 5 < 2 ? 'completed' : i % 20 < 3 ? 'failed' : 'no_answer',
    outcome: i % 5 < 2 ? 'information_provided' : null,
    duration_seconds: i % 5 < 2 ? 60 + (i % 7) * 20 : 20,
    start_time: new Date(INDIA_8AM.getTime() - 86_400_000 - i * 60_000).toISOString(),
    end_time: new Date(INDIA_8AM.getTime() - 86_400_000 - i * 60_000 + 90_000).toISOString(),
  }));
  beforeAll(async () => {
    server = await fakeServer({
      'GET /agents': () => ({ status: 200, body: { agents: [AGENT], total: 1, limit: 50, offset: 0 } }),
      'GET /campaigns/:id': () => ({ status: 200, body: { id: DRAFT, name: 'Renewals draft', agent_id: AGENT.id, status: 'draft' } }),
      'GET /campaigns/:id/contacts': () => ({ status: 200, body: threeZoneContacts(4).map((c) => ({ ...c, status: 'pending' })) }),
      'GET /calls': (req) => {
        const limit = Number(req.query.get('limit') ?? 50);
        const offset = Number(req.query.get('offset') ?? 0);
        return { status: 200, body: { calls: calls.slice(offset, offset + limit), total: calls.length, limit, offset } };
      },
    });
  });
  afterAll(() => server?.close());

  it('reads the agent and the calls, sends nothing but GETs, and rehearses on a copy with the learned rates', async () => {
    const file = writeContacts(files.dir, 'account.json', threeZoneContacts(5));
    const r = await run(['campaign', 'run', '--name', 'Renewals', '--agent', 'Sales desk', '--contacts', file, '--rehearse', '--tz', 'Asia/Kolkata'], {
      env: { VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_live_do_not_touch' }, now: () => INDIA_8AM,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.path}`)).toEqual([]);
    expect(server.requests.map((q) => q.path)).toEqual(expect.arrayContaining(['/agents', '/calls']));
    expect(r.stderr).toContain(`Agent: a copy of "Sales desk" (${AGENT.id}), read from ${server.url}.`);
    expect(r.stderr).toMatch(/Rates: learned from your account's last 200 finished calls \(connect 40%; by country for IN, US\)/);
    expect(r.stderr).toContain(`nothing but reads was sent to ${server.url}`);
    // The forecast has the account's history, so it predicts the connects.
    expect(r.stderr).toContain('This agent\'s last 200 calls: 40% connected');
    expect(r.stderr).toContain('a rehearsal tests the pipeline');
    expect(r.stdout).toMatch(/^measure\s+forecast\s+rehearsal\s+note$/m);
    expect(r.stdout).toMatch(/^connected\s+6\s+\d+\s*$/m);
    expect(r.stdout).toMatch(/^dials\s+15\s+15\s*$/m);
    // The real run's journal is never written.
    expect(existsSync(join(files.dir, 'account.run.json'))).toBe(false);
    expect(existsSync(join(files.dir, 'account.rehearsal.run.json'))).toBe(true);
  }, 120_000);

  it('--from-campaign: the draft\'s contacts are read (GET only) and rehearsed; the draft itself is never launched', async () => {
    const before = server.requests.length;
    const r = await run(['campaign', 'run', '--name', 'From draft', '--agent', AGENT.id, '--from-campaign', DRAFT, '--journal', join(files.dir, 'draft.run.json'), '--rehearse', '--json'], {
      env: { VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_live_do_not_touch' }, now: () => INDIA_8AM,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = server.requests.slice(before);
    expect(sent.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(sent.map((q) => q.path)).toEqual(expect.arrayContaining([`/campaigns/${DRAFT}`, `/campaigns/${DRAFT}/contacts`]));
    const json = JSON.parse(r.stdout);
    expect(json.state).toBe('finished');
    expect(json.report.campaigns[0].call_list).toHaveLength(12);
    expect(json.rehearsal.journal).toBe(join(files.dir, 'draft.rehearsal.run.json'));
  }, 120_000);

  it('runs the breaker as a real run does: a trip ends the rehearsal with exit 7, after its report', async () => {
    const file = writeContacts(files.dir, 'trip.json', threeZoneContacts(100));
    const r = await run(['campaign', 'run', '--name', 'Trip', '--agent', 'Sales desk', '--contacts', file, '--wave-size', '100', '--baseline-connect-rate', '0.99', '--rehearse'], {
      env: { VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_live_do_not_touch' }, now: () => new Date('2026-12-01T10:00:00.000Z'),
    });
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).toContain('In the rehearsal, the run was paused by the answer-rate breaker');
    expect(r.stdout).toMatch(/^measure\s+forecast\s+rehearsal/m);
    expect(server.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  }, 120_000);
});

describe('without a key', () => {
  let json: any;
  let journal: any;
  const file = () => join(files.dir, 'three.json');
  beforeAll(async () => {
    // 30 contacts in each of three zones, 30 a day: India on the first day (IST), New York on the second, London on the third.
    writeContacts(files.dir, 'three.json', threeZoneContacts(30));
    writeFileSync(join(files.dir, 'rates.yaml'), 'currency: INR\nrates: {IN: {per_minute: 2}, US: {per_minute: 1}}\n');
    const r = await run(['campaign', 'run', '--name', 'Three zones', '--agent', 'Stand-in desk', '--contacts', file(), '--rehearse',
      '--daily-cap', '30', '--wave-size', '10', '--tz', 'Asia/Kolkata', '--rate-card', join(files.dir, 'rates.yaml'), '--json'], { now: () => INDIA_8AM });
    expect(r.exitCode, r.stderr).toBe(0);
    json = JSON.parse(r.stdout);
    journal = JSON.parse(readFileSync(rehearsalJournalPath(join(files.dir, 'three.run.json')), 'utf8'));
  }, 180_000);

  it('says it used a stand-in agent and the sandbox\'s rates', () => {
    expect(json.rehearsal.agent).toMatchObject({ source: 'stand-in', name: 'Stand-in desk' });
    expect(json.rehearsal.rates).toEqual({ source: 'sandbox defaults' });
    expect(json.rehearsal.notes.join('\n')).toContain('a stand-in named "Stand-in desk" (no account is configured)');
    expect(json.rehearsal.journal).toBe(join(files.dir, 'three.rehearsal.run.json'));
    expect(json.rehearsal.started_at).toBe(INDIA_8AM.toISOString());
    expect(json.rehearsal.time_scale).toBeGreaterThanOrEqual(3_600);
  });

  it('finishes, every call started inside its local window in simulated time', () => {
    expect(journal.state).toBe('finished');
    expect(journal.contacts.every((c: any) => c.state === 'done')).toBe(true);
    const placed = json.report.campaigns[0].call_list as Array<{ phone_number: string; start_time: string }>;
    expect(placed).toHaveLength(90);
    for (const c of placed) {
      const minute = localMinuteOf(c.phone_number, Date.parse(c.start_time));
      expect(minute, `${c.phone_number} at ${c.start_time}`).toBeGreaterThanOrEqual(9 * 60);
      expect(minute, `${c.phone_number} at ${c.start_time}`).toBeLessThan(21 * 60);
    }
    // Three days in India's calendar, one zone a day.
    const days = new Set(placed.map((c) => new Date(Date.parse(c.start_time) + 330 * 60_000).toISOString().slice(0, 10)));
    expect([...days].sort()).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
  });

  it('the run\'s journal and `calls check` agree: the same calls, all within calling hours', async () => {
    const placed = json.report.campaigns[0].call_list as Array<{ call_id: string; phone_number: string; start_time: string; status: string }>;
    const lines = placed.map((c) => JSON.stringify({ call_id: c.call_id, phone_number: c.phone_number, start_time: c.start_time, status: c.status, transcript: [] }));
    writeFileSync(join(files.dir, 'calls.jsonl'), `${lines.join('\n')}\n`);
    writeFileSync(join(files.dir, 'hours.yaml'), 'rules:\n  - {id: hours, kind: within_calling_hours, severity: error}\n');
    const r = await run(['calls', 'check', '--rules', join(files.dir, 'hours.yaml'), '--from-file', join(files.dir, 'calls.jsonl'), '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout).results as Array<{ call_id: string; rule: string; verdict: string }>;
    expect(results.filter((x) => x.verdict !== 'pass')).toEqual([]);
    const checked = new Set(results.map((x) => x.call_id));
    const logged = new Set(journal.contacts.map((c: any) => c.call_id));
    expect(checked).toEqual(logged);
  });

  it('puts the forecast beside what happened, times in ISO 8601 with an offset', () => {
    const rows = Object.fromEntries((json.forecast_vs_actual as Array<{ measure: string; forecast: unknown; actual: unknown }>).map((m) => [m.measure, m]));
    expect(rows.waves).toMatchObject({ kind: 'count', actual: journal.waves.length });
    expect(rows.dials).toMatchObject({ forecast: 90, actual: 90 });
    expect(rows['contacts dialed']).toMatchObject({ forecast: 90, actual: 90 });
    expect(rows['calling days']).toMatchObject({ forecast: 3, actual: 3 });
    expect(rows.connected!.forecast).toBeNull();
    // The rate card: the forecast's range beside what the rehearsal's calls cost, in integer minor units.
    const cost = (json.forecast_vs_actual as Array<Record<string, unknown>>).find((m) => m.measure === 'cost')!;
    expect(cost).toMatchObject({ kind: 'money', currency: 'INR', exponent: 2 });
    expect(Number.isInteger(cost.actual) && (cost.actual as number) > 0).toBe(true);
    expect(cost.forecast as number).toBeLessThanOrEqual(cost.forecast_high as number);
    for (const m of ['first wave', 'finish']) {
      expect(rows[m]!.forecast).toMatch(ISO_WITH_OFFSET);
      expect(rows[m]!.actual).toMatch(ISO_WITH_OFFSET);
    }
    expect(json.rehearsal.started_at).toMatch(ISO_WITH_OFFSET);
    expect(json.rehearsal.ended_at).toMatch(ISO_WITH_OFFSET);
  });

  it('a second rehearsal replaces the first one\'s journal, never a file of another kind', async () => {
    writeFileSync(join(files.dir, 'mine.rehearsal.run.json'), '{"notes": "mine"}');
    const contacts = writeContacts(files.dir, 'mine.json', threeZoneContacts(1));
    const r = await run(['campaign', 'run', '--name', 'Mine', '--agent', 'X', '--contacts', contacts, '--rehearse'], { now: () => INDIA_8AM });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not a rehearsal\'s journal, so the rehearsal will not write over it');
    expect(readFileSync(join(files.dir, 'mine.rehearsal.run.json'), 'utf8')).toBe('{"notes": "mine"}');
  });
});

describe('refusals', () => {
  it.each([
    [['--dry-run'], '--dry-run shows the plan without playing it'],
    [['--resume', 'x.run.json'], 'a run already under way cannot be rehearsed'],
  ])('--rehearse with %j is exit 2', async (extra, message) => {
    const r = await run(['campaign', 'run', '--rehearse', ...extra]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('--html without --rehearse is exit 2', async () => {
    const r = await run(['campaign', 'run', '--name', 'A', '--agent', 'B', '--contacts', 'c.json', '--html', 'r.html']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--html goes with --rehearse');
  });
});

describe('the journal and the scale', () => {
  it.each([
    ['leads.run.json', 'leads.rehearsal.run.json'],
    ['/data/x/leads.run.json', '/data/x/leads.rehearsal.run.json'],
    ['state.json', 'state.rehearsal.json'],
    ['plain', 'plain.rehearsal.json'],
  ])('%s rehearses in %s', (real, rehearsal) => {
    expect(rehearsalJournalPath(real)).toBe(rehearsal);
  });

  it.each([
    [3 * 86_400_000, 18_000],
    [2 * 3_600_000, 500],
    [60_000, 60],
    [60 * 86_400_000, 20_000],
  ])('a span of %i ms plays at %ix', (span, scale) => {
    expect(rehearsalScale(span)).toBe(scale);
  });
});
