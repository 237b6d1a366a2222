/**
 * `campaign report` against a service that answers what the sandbox never would: names
 * with terminal control sequences, outcomes and statuses named like Object's own
 * properties, and start times that are not strings.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, fakeServerPerTest, type FakeServer } from './fake-server.js';
import { run } from '../../helpers/run.js';
import { sharedDir } from '../../helpers/temp.js';
import { campaignReport } from '../../../src/reports/stats.js';
import { statusCounts, summarize, Tally } from '../../../src/watch/summary.js';
import { evaluateFailIf, parseFailIf } from '../../../src/watch/fail-if.js';
import { buildFrame } from '../../../src/watch/frame.js';
import { Chalk } from 'chalk';
import { pathToFileURL } from 'node:url';
import { marked } from 'marked';
import { harness, type Harness } from '../../helpers/cli.js';
import { allCalls, campaignDone, givenAgent, givenLaunchedCampaign } from '../../helpers/given.js';
import { needs } from '../../helpers/requires.js';
import { launchChromium } from '../../helpers/browser.js';

describe('against a server with other shapes', () => {
  const ID = 'c0ffee00-0000-4000-8000-0000000000aa';
  const TITLE = 'Renewals\u001b]0;pwned\u0007\u001b[2J';

  const files = sharedDir('voicectl-report-');
  const fake = fakeServerPerTest();

  const call = (id: string, o: Record<string, unknown>) => ({ call_id: id, campaign_id: ID, status: 'completed', start_time: '2026-05-01T10:15:00Z', end_time: '2026-05-01T10:17:00Z', duration_seconds: 60, summary: 'ok', phone_number: '+919800000001', ...o });

  async function serve(calls: unknown[], campaign: Record<string, unknown> = {}, contacts: unknown[] = [], more: Parameters<typeof fakeServer>[0] = {}) {
    await fake.start({
      ...more,
      [`GET /campaigns/${ID}`]: () => ({ status: 200, body: { id: ID, name: TITLE, status: 'completed', ...campaign } }),
      [`GET /campaigns/${ID}/contacts`]: () => ({ status: 200, body: contacts }),
      'GET /calls': () => ({ status: 200, body: { calls, total: calls.length, limit: 100, offset: 0 } }),
      'GET /calls/:id': (req) => ({ status: 200, body: { ...(calls.find((c) => `/calls/${(c as { call_id: string }).call_id}` === req.path) as object), transcript: [null, 'hi', { role: 'agent', text: 'Hello' }, { role: 7, text: { a: 1 } }] } }),
    });
  }

  const report = (args: string[], tty = false) => run(['campaign', 'report', ID, ...args], {
    env: { VOICECTL_BASE_URL: fake.server.url, VOICECTL_API_KEY: 'sk_fake', VOICECTL_CONFIG_DIR: files.dir },
    tty,
  });

  describe('campaign report and text from the service', () => {
    it('shows control characters as visible escapes in the terminal title line', async () => {
      await serve([call('a', { outcome: 'sold' })]);
      const r = await report([], true);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).not.toMatch(/[\u001b\u0007]/);
      expect(r.stdout).toContain('Campaign Renewals\\x1b]0;pwned\\x07\\x1b[2J');
    });

    it('shows control characters as visible escapes in --format md, headings and cells alike', async () => {
      await serve([call('a', { outcome: 'sold\u001b[31m', summary: 'said\u0007 yes\r\nthen no' })]);
      const r = await report(['--format', 'md']);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(r.stdout).toContain('## Campaign report: Renewals\\\\x1b]0;pwned\\\\x07\\\\x1b[2J');
      expect(r.stdout).toContain('sold\\\\x1b[31m');
      expect(r.stdout).toContain('said\\\\x07 yes then no');
    });

    it('counts outcomes and statuses named constructor and __proto__ like any other', async () => {
      await serve(
        [call('a', { outcome: 'constructor' }), call('b', { outcome: 'constructor' }), call('c', { outcome: '__proto__' }), call('d', { outcome: 'toString' })],
        {},
        [{ phone_number: '+1', status: 'constructor' }, { phone_number: '+2', status: '__proto__' }, { phone_number: '+3', status: '__proto__' }],
      );
      const r = await report(['--format', 'json']);
      expect(r.exitCode).toBe(0);
      const body = JSON.parse(r.stdout) as { campaigns: Array<{ outcomes: Record<string, number>; contacts_by_status: Record<string, number>; contacts: number }> };
      const rep = body.campaigns[0]!;
      expect(Object.entries(rep.outcomes)).toEqual([['constructor', 2], ['__proto__', 1], ['toString', 1]]);
      expect(Object.entries(rep.contacts_by_status)).toEqual([['constructor', 1], ['__proto__', 2]]);
      const md = await report(['--format', 'md']);
      expect(md.stdout).toMatch(/\| constructor \| 2 \|/);
      expect(md.stdout).toMatch(/\| __proto__ \| 1 \|/);
    });

    it('the campaign\'s own contacts_by_status may name __proto__ too', () => {
      const counts = JSON.parse('{"__proto__": 2, "constructor": 1, "completed": 3}') as Record<string, number>;
      const r = campaignReport({ id: 'x', contacts_by_status: counts }, [], []);
      expect(Object.entries(r.contacts_by_status)).toEqual([['__proto__', 2], ['constructor', 1], ['completed', 3]]);
      expect(r.contacts).toBe(6);
    });

    it('--recordings: a link the service will not give leaves that call without a player and a warning; the others play', async () => {
      await serve([call('a', { outcome: 'sold', has_recording: true }), call('b', { outcome: 'sold', has_recording: true }), call('c', { outcome: 'sold', has_recording: false })], {}, [], {
        'GET /calls/:id/recording-url': (req) => (req.path === '/calls/a/recording-url'
          ? { status: 200, body: { url: 'https://media.example/rec/a.wav?sig=1', expires_at: '2026-05-01T11:17:00Z' } }
          : { status: 404, body: { error: 'no recording', status_code: 404 } }),
      });
      const file = join(files.dir, 'recordings.html');
      const r = await report(['--html', file, '--recordings', '--no-transcripts']);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toMatch(/1 recording link could not be fetched; those calls have no player \(first: b:/);
      const html = readFileSync(file, 'utf8');
      expect(html.match(/<audio /g)).toHaveLength(1);
      expect(html).toContain('src="https://media.example/rec/a.wav?sig=1"');
      expect(html).toContain("media-src https://media.example");
      expect(html).toContain('expire after an hour');
    });

    it('--html writes the page whatever JSON type start_time has', async () => {
      await serve([
        call('a', { outcome: 'sold', start_time: 1746094500 }),
        call('b', { outcome: 'sold', start_time: { at: 'noon' } }),
        call('c', { outcome: 'sold', start_time: ['2026'] }),
        call('d', { outcome: 'sold', start_time: true }),
        call('e', { outcome: 'sold', start_time: null }),
        call('f', { outcome: 'sold' }),
      ]);
      const file = join(files.dir, 'report.html');
      const r = await report(['--html', file]);
      expect(r.stderr).not.toMatch(/unexpected error|TypeError/);
      expect(r.exitCode).toBe(0);
      const html = readFileSync(file, 'utf8');
      expect(html.match(/<tr class="call"/g)).toHaveLength(6);
      expect(html).toContain('2026-05-01 10:15:00');
      expect(html).toContain('<b>Agent</b> Hello');
    });
  });

  describe('watch counters', () => {
    it('count outcomes named constructor and __proto__, and read them in --fail-if', () => {
      const tally = new Tally();
      for (const outcome of ['constructor', 'constructor', '__proto__', 'hasOwnProperty']) tally.add({ status: 'completed', outcome });
      const counts = statusCounts(JSON.parse('{"completed": 4, "__proto__": 1}'));
      expect(Object.entries(counts)).toEqual([['completed', 4], ['__proto__', 1]]);
      const s = summarize({ id: 'c', contacts_by_status: JSON.parse('{"completed": 4, "__proto__": 1}') }, tally);
      expect(Object.entries(s.outcomes)).toEqual([['constructor', 2], ['__proto__', 1], ['hasOwnProperty', 1]]);
      expect(s.total_contacts).toBe(5);
      const results = evaluateFailIf(parseFailIf('constructor>1,valueOf>0'), { contactsByStatus: s.contacts_by_status, outcomes: s.outcomes, totalContacts: 5 });
      expect(results.map((x) => [x.count, x.crossed])).toEqual([[2, true], [0, false]]);
    });

    it('draw a status named constructor in the live frame', () => {
      const counts = statusCounts(JSON.parse('{"completed": 2, "constructor": 1, "__proto__": 1}'));
      for (const level of [0, 1] as const) {
        const lines = buildFrame({ campaignId: 'c', status: 'running', counts, total: 4, finished: 2, elapsedMs: 0, recent: [] }, { width: 80, height: 24, color: new Chalk({ level }), campaignId: 'c' });
        const text = lines.map((l) => l.text).join('\n');
        expect(text).toContain('constructor 1');
        expect(text).toContain('__proto__ 1');
      }
    });
  });
});

describe('sections', () => {
  /**
   * `campaign report` at a terminal and as markdown: every section docs/reports.md and the
   * help promise (funnel, contacts by status, outcomes with their class, durations, calls per
   * hour, connect rate by hour of day, callbacks), in the user's zone, and no line wider than
   * the terminal, side-by-side campaigns included.
   */
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
});

describe('against the sandbox, the built binary', () => {
  /**
   * `campaign report` end to end: a campaign run to completion in the sandbox, reported in
   * each format; the markdown rendered by a markdown parser, and the HTML page opened in a
   * real headless Chromium (Debian's, driven by playwright-core).
   */
  let h: Harness;
  const ids: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'voicectl-report-'));
  const HOSTILE = '<script>window.__pwned = 1</script>Asha | "Q"';

  beforeAll(async () => {
    h = await harness({ timeScale: 600, seed: 21 });
    const agent = await givenAgent(h.api, { name: 'Report desk', voice_name: 'Priya', greeting: 'Namaste', call_purpose: 'x', prompt: 'x', tools: [] });
    for (const [name, n, first] of [['Renewals week 1', 60, 1000], ['Renewals week 2', 30, 5000]] as const) {
      const contacts = Array.from({ length: n }, (_, i) => ({ phone_number: `+9198${String(first + i).padStart(8, '0')}`, name: i === 0 ? HOSTILE : `Contact ${first + i}` }));
      ids.push((await givenLaunchedCampaign(h.api, { agentId: agent.id, contacts, name })).id);
    }
    for (const id of ids) await campaignDone(h.api, id);
  }, 90_000);
  afterAll(async () => h.close());

  /** The figures, worked out here from GET /calls. */
  async function expected(id: string) {
    const calls = await allCalls(h.api, `campaign_id=${id}`);
    const finished = calls.filter((c) => c.end_time);
    const connected = finished.filter((c) => c.status === 'completed');
    const outcomes: Record<string, number> = {};
    for (const c of finished) outcomes[c.outcome || c.status] = (outcomes[c.outcome || c.status] ?? 0) + 1;
    const avg = connected.reduce((a, c) => a + c.duration_seconds, 0) / connected.length;
    return { calls, finished: finished.length, connected: connected.length, outcomes, avg };
  }

  describe('voicectl campaign report', () => {
    it('--json: every figure matches the campaign\'s calls', async () => {
      const r = await h.run(['campaign', 'report', ids[0]!, '--json']);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const [report] = JSON.parse(r.stdout).campaigns;
      const e = await expected(ids[0]!);
      expect(report.contacts).toBe(60);
      expect(report.finished_calls).toBe(e.finished);
      expect(report.connected).toBe(e.connected);
      expect(report.connect_rate).toBeCloseTo(e.connected / e.finished, 10);
      expect(report.outcomes).toEqual(e.outcomes);
      expect(report.duration.average_seconds).toBeCloseTo(e.avg, 6);
      expect(report.duration.histogram.reduce((a: number, b: { calls: number }) => a + b.calls, 0)).toBe(e.connected);
      expect(report.calls_per_hour.reduce((a: number, b: { calls: number }) => a + b.calls, 0)).toBe(e.finished);
      expect(report.call_list).toHaveLength(e.calls.length);
    });

    it('--format md renders in a markdown parser as tables with the same numbers', async () => {
      const r = await h.run(['campaign', 'report', ids[0]!, '--format', 'md']);
      expect(r.exitCode).toBe(0);
      const html = await marked.parse(r.stdout);
      expect((html.match(/<table>/g) ?? []).length).toBeGreaterThanOrEqual(5);
      const e = await expected(ids[0]!);
      for (const [outcome, n] of Object.entries(e.outcomes)) expect(html).toMatch(new RegExp(`<td>${outcome}</td>\\s*<td>${n}</td>`));
      // A pipe in a name does not break its table row; markup in it is text.
      expect(html).not.toContain('<script>');
      expect(html).toContain('&lt;script&gt;');
    });

    it('at a terminal-less default, a readable summary', async () => {
      const r = await h.run(['campaign', 'report', ids[0]!]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('connect rate');
      expect(r.stdout).toContain('outcomes');
    });

    it('--name-prefix puts campaigns side by side', async () => {
      const r = await h.run(['campaign', 'report', '--name-prefix', 'Renewals week', '--json']);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).campaigns.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort());
      const none = await h.run(['campaign', 'report', '--name-prefix', 'Nothing like this']);
      expect(none.exitCode).toBe(2);
    });

    it('--html: one page that opens in Chromium with no network and no errors; charts, search and transcripts work', async (ctx) => {
      needs(ctx, 'chromium');
      const file = join(dir, 'report.html');
      const r = await h.run(['campaign', 'report', ...ids, '--html', file]);
      expect(r.exitCode).toBe(0);
      expect(readFileSync(file, 'utf8')).not.toMatch(/https?:\/\//);
      const json = JSON.parse((await h.run(['campaign', 'report', ...ids, '--json'])).stdout).campaigns;

      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        const requests: string[] = [];
        let dialogs = 0;
        page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
        page.on('pageerror', (e) => errors.push(String(e)));
        page.on('request', (q) => requests.push(q.url()));
        page.on('dialog', (d) => { dialogs++; void d.dismiss(); });
        await page.goto(pathToFileURL(file).href);
        expect(errors).toEqual([]);
        expect(requests).toEqual([pathToFileURL(file).href]);
        expect(dialogs).toBe(0);
        expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

        // The charts' numbers are the campaign's.
        const section = page.locator(`section[data-campaign="${ids[0]}"]`);
        const bars = async (chart: string) => Object.fromEntries(await section.locator(`[data-chart="${chart}"] [data-value]`).evaluateAll(
          (rects) => rects.map((r) => [r.getAttribute('data-label'), Number(r.getAttribute('data-value'))])));
        expect(await bars('outcomes')).toEqual(json[0].outcomes);
        expect(await bars('durations')).toEqual(Object.fromEntries(json[0].duration.histogram.map((b: { bucket: string; calls: number }) => [b.bucket, b.calls])));
        const overTime = await bars('calls-over-time');
        expect((Object.values(overTime) as number[]).reduce((a, b) => a + b, 0)).toBe(json[0].finished_calls);
        expect(await section.locator('[data-kpi="connected"]').textContent()).toBe(String(json[0].connected));

        // The hostile name is text.
        await expect.poll(() => section.locator('tr.call', { hasText: '<script>' }).count()).toBe(1);

        // Search narrows the rows; a click shows the transcript.
        const visible = () => section.locator('tr.call:not([hidden])').count();
        expect(await visible()).toBe(60);
        const completed = json[0].call_list.find((c: { status: string }) => c.status === 'completed');
        await section.locator('input.search').fill(completed.phone_number);
        expect(await visible()).toBe(1);
        const row = section.locator(`tr.call[data-call="${completed.call_id}"]`);
        await row.click();
        const transcript = row.locator('xpath=following-sibling::tr[1]');
        expect(await transcript.isVisible()).toBe(true);
        expect(await transcript.locator('.turn').count()).toBeGreaterThan(0);
        await section.locator('input.search').fill('');
        expect(await visible()).toBe(60);
      } finally {
        await browser.close();
      }
    }, 60_000);
  });
});
