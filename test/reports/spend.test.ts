/**
 * The spend in `campaign report`: a 100-call fixture priced by a rate card to the paisa, as
 * computed by hand, per country, with the country the card does not price named
 * "unpriced" (never 0); in the terminal, markdown, JSON and the page, for a campaign (from
 * --rate-card or the profile's rate_card). With no rate card the report says, in one line,
 * how to add one, and shows no figure.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRateCard } from '../../src/reports/rate-card.js';
import { campaignReport } from '../../src/reports/stats.js';
import { NO_RATE_CARD, reportSpend } from '../../src/reports/spend.js';
import type { Call } from '../../src/api/calls.js';
import { fakeServerPerTest } from '../commands/campaign/fake-server.js';
import { run } from '../helpers/run.js';
import { sharedDir } from '../helpers/temp.js';

const CARD = `currency: INR
rates:
  IN: {per_minute: 1.20, connection: 0.10, min_seconds: 30}
  US: {per_minute: 7.45}
`;
const ID = 'c0ffee00-0000-4000-8000-00000000spnd';

/** The fixture: 100 finished calls, and by hand what they cost. */
function fixture(): Call[] {
  const calls: Call[] = [];
  const add = (n: number, phone: (i: number) => string, status: string, seconds: number) => {
    for (let i = 0; i < n; i++) {
      const k = calls.length;
      const start = Date.parse('2026-05-01T10:00:00Z') + k * 60_000;
      calls.push({
        call_id: `call_${k}`, campaign_id: ID, phone_number: phone(i), status, outcome: status === 'completed' ? 'interested' : null,
        duration_seconds: seconds, start_time: new Date(start).toISOString(), end_time: new Date(start + seconds * 1000).toISOString(), summary: '',
      } as unknown as Call);
    }
  };
  // 40 Indian calls answered for 61 s: 2 minutes at 1.20 plus 0.10 = 2.50 each -> 100.00
  add(40, (i) => `+9198765${String(10_000 + i)}`, 'completed', 61);
  // 20 Indian calls answered for 10 s: the 30 s minimum, billed as one minute: 1.30 each -> 26.00
  add(20, (i) => `+9198765${String(20_000 + i)}`, 'completed', 10);
  // 15 Indian calls not answered: nothing (charge_unanswered is false by default)
  add(15, (i) => `+9198765${String(30_000 + i)}`, 'no_answer', 0);
  // 20 calls to New York answered for 125 s: 3 minutes at 7.45 = 22.35 each -> 447.00
  add(20, (i) => `+1212555${String(1000 + i)}`, 'completed', 125);
  // 5 calls to the UAE, which the card does not price
  add(5, (i) => `+97150123${String(4000 + i)}`, 'completed', 90);
  return calls;
}
/** 100.00 + 26.00 + 0 + 447.00, in paise. */
const HAND = 57_300;

describe('the spend of a campaign report', () => {
  it('prices the 100-call fixture to the paisa, per country, and names the unpriced country', () => {
    const r = campaignReport({ id: ID, name: 'Spend', status: 'completed' } as never, [], fixture());
    expect(r.finished_calls).toBe(100);
    const s = reportSpend(r.call_list, parseRateCard(CARD, 'rates.yaml'));
    expect(s.minor_units).toBe(HAND);
    expect(s.amount).toBe('573.00');
    expect(s.priced_calls).toBe(95);
    expect(s.unpriced).toEqual({ AE: 5 });
    expect(s.by_country).toEqual([
      { country: 'US', calls: 20, billed_minutes: 60, minor_units: 44_700, amount: '447.00' },
      { country: 'IN', calls: 75, billed_minutes: 100, minor_units: 12_600, amount: '126.00' },
      { country: 'AE', calls: 5, billed_minutes: null, minor_units: null, amount: null },
    ]);
    expect(s.projected).toBeUndefined();
  });

  it('projects the total over the contacts not yet dialed, at the average a priced call', () => {
    const r = campaignReport({ id: ID, name: 'Spend', status: 'running' } as never, [], fixture());
    const s = reportSpend(r.call_list, parseRateCard(CARD, 'rates.yaml'), { contactsLeft: 19 });
    // 573.00 over 95 priced calls is 6.0315... a call; 19 more: 114.60 -> 687.60
    expect(s.projected).toEqual({ contacts_left: 19, minor_units: HAND + 11_460, amount: '687.60' });
  });
});

describe('campaign report with a rate card', () => {
  const files = sharedDir('voicectl-report-spend-');
  const fake = fakeServerPerTest();

  async function serve() {
    const calls = fixture();
    await fake.start({
      [`GET /campaigns/${ID}`]: () => ({ status: 200, body: { id: ID, name: 'Spring renewals', status: 'completed' } }),
      [`GET /campaigns/${ID}/contacts`]: () => ({ status: 200, body: calls.map((c) => ({ phone_number: c.phone_number, status: c.status })) }),
      'GET /calls': () => ({ status: 200, body: { calls, total: calls.length, limit: 100, offset: 0 } }),
    });
  }

  const env = (config = files.dir) => ({ VOICECTL_BASE_URL: fake.server.url, VOICECTL_API_KEY: 'sk_fake', VOICECTL_CONFIG_DIR: config });
  const card = () => {
    const path = join(files.dir, 'rates.yaml');
    writeFileSync(path, CARD);
    return path;
  };

  it('--json: the spend in minor units, per country, unpriced named', async () => {
    await serve();
    const r = await run(['campaign', 'report', ID, '--rate-card', card(), '--json'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const spend = JSON.parse(r.stdout).campaigns[0].spend;
    expect(spend).toMatchObject({ currency: 'INR', minor_units: HAND, amount: '573.00', priced_calls: 95, unpriced: { AE: 5 }, rate_card: `--rate-card ${card()}` });
    expect(spend.by_country.find((c: { country: string }) => c.country === 'AE')).toEqual({ country: 'AE', calls: 5, billed_minutes: null, minor_units: null, amount: null });
  });

  it('at a terminal and in markdown: the amount with its currency code, the table per country, "unpriced" for the UAE', async () => {
    await serve();
    const t = await run(['campaign', 'report', ID, '--rate-card', card()], { env: env(), tty: true });
    expect(t.exitCode, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/spend \(--rate-card .*rates\.yaml\)/);
    expect(t.stdout).toMatch(/US\s+20\s+60\s+INR 447\.00/);
    expect(t.stdout).toMatch(/IN\s+75\s+100\s+INR 126\.00/);
    expect(t.stdout).toMatch(/AE\s+5\s+-\s+unpriced/);
    expect(t.stdout).toMatch(/total\s+100\s+160\s+INR 573\.00 \(priced calls\)/);
    expect(t.stdout).not.toMatch(/AE.*INR 0/);
    const md = await run(['campaign', 'report', ID, '--rate-card', card(), '--format', 'md'], { env: env() });
    expect(md.exitCode, md.stderr).toBe(0);
    expect(md.stdout).toContain('INR 573.00 on 95 priced calls; unpriced (no rate in the card): 5 calls to AE');
    expect(md.stdout).toContain('| AE | 5 | - | unpriced |');
    expect(md.stdout).toMatch(/\| spend \| INR 573\.00 \+ unpriced \|/);
  });

  it('in the page: the spend, its table and the unpriced country', async () => {
    await serve();
    const page = join(files.dir, 'report.html');
    const r = await run(['campaign', 'report', ID, '--rate-card', card(), '--html', page, '--no-transcripts'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('data-kpi="spend">INR 573.00</b>');
    expect(html).toContain(`data-spend-minor-units="${HAND}"`);
    expect(html).toMatch(/<tr data-country="AE"><th scope="row">AE<\/th><td class="n">5<\/td><td class="n">-<\/td><td class="n">unpriced<\/td><\/tr>/);
    expect(html).not.toContain('data-spend="none"');
  });

  it('takes the profile\'s rate_card when no --rate-card is given', async () => {
    await serve();
    const config = join(files.dir, 'profile');
    const set = await run(['config', 'set', 'rate_card', card()], { env: env(config) });
    expect(set.exitCode, set.stderr).toBe(0);
    const r = await run(['campaign', 'report', ID, '--json'], { env: env(config) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).campaigns[0].spend).toMatchObject({ minor_units: HAND, rate_card: `${card()} (the profile's rate_card)` });
  });

  it('with no rate card: one line that says how to add one, no zero anywhere; JSON spend null', async () => {
    await serve();
    const t = await run(['campaign', 'report', ID], { env: env(), tty: true });
    expect(t.exitCode, t.stderr).toBe(0);
    expect(t.stdout).toContain(NO_RATE_CARD);
    expect(t.stdout).not.toMatch(/INR|0\.00/);
    const md = await run(['campaign', 'report', ID, '--format', 'md'], { env: env() });
    expect(md.stdout.split('\n').filter((l) => l.includes('rate card'))).toHaveLength(1);
    const j = await run(['campaign', 'report', ID, '--json'], { env: env() });
    expect(JSON.parse(j.stdout).campaigns[0].spend).toBeNull();
    const page = join(files.dir, 'none.html');
    await run(['campaign', 'report', ID, '--html', page, '--no-transcripts'], { env: env() });
    expect(readFileSync(page, 'utf8')).toContain('data-spend="none"');
  });

  it('refuses a rate card it cannot read: exit 2, naming it, before any request', async () => {
    await serve();
    const bad = join(files.dir, 'bad.yaml');
    writeFileSync(bad, 'currency: INR\nrates: {India: {per_minute: 1}}\n');
    const r = await run(['campaign', 'report', ID, '--rate-card', bad], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--rate-card ${bad}: rates: "India" is not a two-letter country code`);
    expect(fake.server.requests).toHaveLength(0);
  });
});
