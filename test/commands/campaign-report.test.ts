/**
 * `campaign report` against a service that answers what the sandbox never would: names
 * with terminal control sequences, outcomes and statuses named like Object's own
 * properties, and start times that are not strings.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, type FakeServer } from './campaign-fake-server.js';
import { run } from '../helpers/run.js';
import { campaignReport } from '../../src/reports/stats.js';
import { statusCounts, summarize, Tally } from '../../src/watch/summary.js';
import { evaluateFailIf, parseFailIf } from '../../src/watch/fail-if.js';
import { buildFrame } from '../../src/watch/frame.js';
import { Chalk } from 'chalk';

const ID = 'c0ffee00-0000-4000-8000-0000000000aa';
const TITLE = 'Renewals\u001b]0;pwned\u0007\u001b[2J';

let dir = '';
let server: FakeServer | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'voicectl-report-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = (id: string, o: Record<string, unknown>) => ({ call_id: id, campaign_id: ID, status: 'completed', start_time: '2026-05-01T10:15:00Z', end_time: '2026-05-01T10:17:00Z', duration_seconds: 60, summary: 'ok', phone_number: '+919800000001', ...o });

async function serve(calls: unknown[], campaign: Record<string, unknown> = {}, contacts: unknown[] = [], more: Parameters<typeof fakeServer>[0] = {}) {
  server = await fakeServer({
    ...more,
    [`GET /campaigns/${ID}`]: () => ({ status: 200, body: { id: ID, name: TITLE, status: 'completed', ...campaign } }),
    [`GET /campaigns/${ID}/contacts`]: () => ({ status: 200, body: contacts }),
    'GET /calls': () => ({ status: 200, body: { calls, total: calls.length, limit: 100, offset: 0 } }),
    'GET /calls/:id': (req) => ({ status: 200, body: { ...(calls.find((c) => `/calls/${(c as { call_id: string }).call_id}` === req.path) as object), transcript: [null, 'hi', { role: 'agent', text: 'Hello' }, { role: 7, text: { a: 1 } }] } }),
  });
}

const report = (args: string[], tty = false) => run(['campaign', 'report', ID, ...args], {
  env: { VOICECTL_BASE_URL: server!.url, VOICECTL_API_KEY: 'sk_fake', VOICECTL_CONFIG_DIR: dir },
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
    const file = join(dir, 'recordings.html');
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
    const file = join(dir, 'report.html');
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
