/**
 * `campaign report` at a terminal and as markdown: every section docs/reports.md and the
 * help promise (funnel, contacts by status, outcomes with their class, durations, calls per
 * hour, connect rate by hour of day, callbacks), in the user's zone, and no line wider than
 * the terminal, side-by-side campaigns included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, type FakeServer } from './campaign-fake-server.js';
import { run } from '../helpers/run.js';

const IDS = Array.from({ length: 5 }, (_, i) => `c0ffee00-0000-4000-8000-00000000000${i}`);
const call = (id: string, campaign: string, o: Record<string, unknown>) => ({
  call_id: id, campaign_id: campaign, status: 'completed', start_time: '2026-05-01T10:15:00Z', end_time: '2026-05-01T10:17:00Z',
  duration_seconds: 90, summary: 'ok', phone_number: `+9198000000${id.slice(-2)}`, contact: { name: `Contact ${id}` }, ...o,
});
const calls = IDS.flatMap((campaign, k) => [
  call(`${k}1`, campaign, { outcome: 'requirements_gathered' }),
  call(`${k}2`, campaign, { outcome: 'callback_scheduled', summary: 'Asha was busy and asked to be called back tomorrow at 4 pm; she wants to hear about the family floater plan and the renewal discount in detail.', start_time: '2026-05-01T18:40:00Z' }),
  call(`${k}3`, campaign, { status: 'no_answer', outcome: 'no_answer' }),
]);

let server: FakeServer;
beforeAll(async () => serve());
afterAll(async () => server?.close());

async function serve() {
  const routes: Parameters<typeof fakeServer>[0] = {
    'GET /calls': (req) => {
      const id = req.query.get('campaign_id');
      const list = calls.filter((c) => !id || c.campaign_id === id);
      return { status: 200, body: { calls: list, total: list.length, limit: 100, offset: 0 } };
    },
  };
  for (const [i, id] of IDS.entries()) {
    routes[`GET /campaigns/${id}`] = () => ({ status: 200, body: { id, name: `Renewals for the northern region, week ${i + 1}`, status: 'completed' } });
    routes[`GET /campaigns/${id}/contacts`] = () => ({ status: 200, body: [{ phone_number: '+1', status: 'completed' }, { phone_number: '+2', status: 'completed' }, { phone_number: '+3', status: 'no_answer' }, { phone_number: '+4', status: 'pending' }] });
  }
  server = await fakeServer(routes);
}

const report = (args: string[], columns?: number) => run(['campaign', 'report', ...args, '--tz', 'Asia/Kolkata'], {
  env: { VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_fake' },
  tty: columns ? { stdout: true, columns } : undefined,
});

describe('campaign report sections', () => {
  it('at a terminal: every promised section, in the user\'s zone', async () => {
    const r = await report([IDS[0]!], 100);
    expect(r.exitCode).toBe(0);
    for (const title of ['funnel (contacts)', 'contacts by status', 'outcomes', 'durations of connected calls', 'calls per hour (Asia/Kolkata)', 'connect rate by hour of day (Asia/Kolkata)', 'callbacks (1)']) {
      expect(r.stdout).toContain(`\n${title}\n`);
    }
    expect(r.stdout).toMatch(/pending\s+1/);
    expect(r.stdout).toMatch(/callback_scheduled\s+neutral\s+1/);
    expect(r.stdout).toMatch(/2026-05-01 15:00\s+2/); // 10:15 UTC is 15:45 in India
    expect(r.stdout).toMatch(/15:00\s+2\s+1\s+50\.0%/);
    expect(r.stdout).toContain('2026-05-02 00:10:00'); // the callback's call, 18:40 UTC
  });

  it.each([60, 80, 120])('no line is wider than a %i-column terminal, five campaigns side by side included', async (columns) => {
    const r = await report(IDS, columns);
    expect(r.exitCode).toBe(0);
    const wide = r.stdout.split('\n').filter((l) => l.length > columns);
    expect(wide).toEqual([]);
    // Every campaign is in a side-by-side table.
    for (let i = 1; i <= 5; i++) expect(r.stdout).toContain(`week ${i}`);
  });

  it('--format md: the same sections as tables', async () => {
    const r = await report([IDS[0]!, '--format', 'md']);
    expect(r.exitCode).toBe(0);
    for (const title of ['**Funnel**', '**Contacts by status**', '**Outcomes**', '**Call durations (connected calls)**', '**Calls per hour (Asia/Kolkata)**', '**Connect rate by hour of day (Asia/Kolkata)**', '**Callbacks** (1)']) {
      expect(r.stdout).toContain(title);
    }
    expect(r.stdout).toContain('| callback_scheduled | 1 | neutral | 33.3% |');
    expect(r.stdout).toContain('| of interest | 1 | 25.0% |');
  });
});

describe('campaign followups against a service', () => {
  it('reads a callback\'s time from the customer\'s words when the summary states none, and keeps the sentence when nothing can be read', async () => {
    const ID = 'c0ffee00-0000-4000-8000-0000000000f1';
    const list = [
      { call_id: 'f1', campaign_id: ID, status: 'completed', outcome: 'callback_scheduled', summary: 'The customer asked for a callback.', phone_number: '+919800000101', start_time: '2026-11-26T05:30:00Z', end_time: '2026-11-26T05:32:00Z', contact: { name: 'A', extra: { timezone: 'Asia/Kolkata' } } },
      { call_id: 'f2', campaign_id: ID, status: 'completed', outcome: 'callback_scheduled', summary: 'Asked to be called back later.', phone_number: '+919800000102', start_time: '2026-11-26T05:40:00Z', end_time: '2026-11-26T05:42:00Z', contact: { name: 'B' } },
      { call_id: 'f3', campaign_id: ID, status: 'completed', outcome: 'not_interested', summary: 'No.', phone_number: '+919800000103', start_time: '2026-11-26T05:50:00Z', end_time: '2026-11-26T05:51:00Z' },
    ];
    const transcripts: Record<string, unknown[]> = {
      '/calls/f1': [{ role: 'agent', text: 'When should we call?' }, { role: 'user', text: 'Haan, kal shaam 5 baje theek rahega.' }],
      '/calls/f2': [{ role: 'user', text: 'Abhi busy hoon, baad mein.' }],
    };
    const s = await fakeServer({
      [`GET /campaigns/${ID}`]: () => ({ status: 200, body: { id: ID, name: 'F', status: 'completed' } }),
      'GET /calls': () => ({ status: 200, body: { calls: list, total: list.length, limit: 100, offset: 0 } }),
      'GET /calls/:id': (req) => ({ status: 200, body: { ...list.find((c) => `/calls/${c.call_id}` === req.path), transcript: transcripts[req.path] } }),
    });
    try {
      const r = await run(['campaign', 'followups', ID, '--json'], { env: { VOICECTL_BASE_URL: s.url, VOICECTL_API_KEY: 'sk_fake' } });
      expect(r.exitCode).toBe(0);
      const rows = JSON.parse(r.stdout);
      expect(rows.map((x: { call_id: string }) => x.call_id)).toEqual(['f1', 'f2']);
      expect(rows[0].requested_time).toBe('2026-11-27T17:00:00+05:30');
      expect(rows[0].requested_as).toBe('kal shaam 5 baje');
      expect(rows[1].requested_time).toBeNull();
      expect(rows[1].requested_as).toBe('Asked to be called back later.');
    } finally {
      await s.close();
    }
  });
});
