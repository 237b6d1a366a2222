/**
 * The zone people read times in: --tz, then VOICECTL_TZ, then the profile's timezone,
 * then the system's (TZ, pinned to UTC by the harness). Tables, `call get`, reports and
 * the calling-hours refusal name it; dates typed without an offset are read in it and
 * sent in UTC; JSON and CSV stay UTC ISO 8601 whatever it is.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { clientFor, givenAgent, givenFinishedCampaign } from '../helpers/given.js';
import { run, start } from '../helpers/run.js';
import { clockTime, formatDateTime } from '../../src/util/time.js';

let h: Harness;
let dir: string;
let campaignId: string;
let calls: Array<{ call_id: string; start_time: string }>;

/** A person at a 200-column terminal. */
const onTerminal = (argv: string[], env: Record<string, string | undefined> = {}) =>
  run([...argv, '--no-input'], { env: { ...h.env, NO_COLOR: '1', ...env }, tty: { stdout: true, columns: 200 } });
const forScript = (argv: string[], env: Record<string, string | undefined> = {}) => run(argv, { env: { ...h.env, ...env } });

beforeAll(async () => {
  h = await harness({ timeScale: 600, seed: 7 });
  dir = mkdtempSync(join(tmpdir(), 'voicectl-tz-'));
  const api = clientFor(h.sandbox);
  const agent = await givenAgent(api);
  const done = await givenFinishedCampaign(api, { agentId: agent.id, contacts: 3, name: 'Zones' });
  campaignId = done.id;
  calls = JSON.parse((await forScript(['call', 'list', '--campaign', campaignId, '--json'])).stdout);
  expect(calls.length).toBe(3);
}, 60_000);

afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('call list and call get', () => {
  it('show start times in --tz, named in the header; a legacy name is shown canonical', async () => {
    const r = await onTerminal(['call', 'list', '--campaign', campaignId, '--tz', 'Asia/Calcutta']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^TIME \(Asia\/Kolkata\)\s+CALL ID/);
    for (const c of calls) {
      const line = r.stdout.split('\n').find((l) => l.includes(c.call_id))!;
      expect(line.startsWith(formatDateTime(Date.parse(c.start_time), 'Asia/Kolkata'))).toBe(true);
    }
    const utc = await onTerminal(['call', 'list', '--campaign', campaignId]);
    expect(utc.stdout.split('\n')[0]).toMatch(/^TIME \(UTC\)/);
    expect(utc.stdout).toContain(formatDateTime(Date.parse(calls[0]!.start_time), 'UTC'));

    const one = await onTerminal(['call', 'get', calls[0]!.call_id, '--tz', 'America/New_York']);
    expect(one.stdout).toContain(`started     ${formatDateTime(Date.parse(calls[0]!.start_time), 'America/New_York')} America/New_York`);
  });

  it('JSON, JSON lines and CSV are the same whatever the zone: UTC ISO 8601', async () => {
    for (const format of ['json', 'jsonl', 'csv']) {
      const plain = await forScript(['call', 'list', '--campaign', campaignId, '-o', format]);
      const zoned = await forScript(['call', 'list', '--campaign', campaignId, '-o', format, '--tz', 'Asia/Kolkata'], { VOICECTL_TZ: 'America/Chicago' });
      expect(zoned.exitCode).toBe(0);
      expect(zoned.stdout, format).toBe(plain.stdout);
      expect(zoned.stdout).toContain(calls[0]!.start_time);
    }
    const get = await forScript(['call', 'get', calls[0]!.call_id, '-o', 'csv', '--tz', 'Asia/Kolkata']);
    expect(get.stdout).toBe((await forScript(['call', 'get', calls[0]!.call_id, '-o', 'csv'])).stdout);
  });

  it('reads --since/--until dates and times without an offset in the zone, and sends them in UTC with Z', async () => {
    const sent = () => h.sandbox.requests.filter((q) => q.method === 'GET' && q.path === '/calls').at(-1)!.query;
    expect((await forScript(['call', 'list', '--since', '2026-11-26', '--until', '2026-11-27T09:30', '--tz', 'Asia/Kolkata'])).exitCode).toBe(0);
    expect(sent()).toMatchObject({ since: '2026-11-25T18:30:00.000Z', until: '2026-11-27T04:00:00.000Z' });
    expect((await forScript(['call', 'list', '--since', '2026-11-26'], { VOICECTL_TZ: 'America/New_York' })).exitCode).toBe(0);
    expect(sent()).toMatchObject({ since: '2026-11-26T05:00:00.000Z' });
    // An explicit offset wins over the zone; the default zone is the system's (UTC here).
    expect((await forScript(['call', 'list', '--since', '2026-11-26T10:00+01:00', '--tz', 'Asia/Kolkata'])).exitCode).toBe(0);
    expect(sent()).toMatchObject({ since: '2026-11-26T09:00:00.000Z' });
    expect((await forScript(['call', 'list', '--since', '2026-11-26'])).exitCode).toBe(0);
    expect(sent()).toMatchObject({ since: '2026-11-26T00:00:00.000Z' });
    // The zone may come before the verb too.
    expect((await forScript(['--tz', 'Asia/Tokyo', 'call', 'list', '--since', '2026-11-26'])).exitCode).toBe(0);
    expect(sent()).toMatchObject({ since: '2026-11-25T15:00:00.000Z' });
  });

  it('says --since after --until in the zone', async () => {
    const r = await forScript(['call', 'list', '--since', '2026-11-27', '--until', '2026-11-26', '--tz', 'Asia/Kolkata']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--since (2026-11-27 00:00:00) must be before --until (2026-11-26 00:00:00), both Asia/Kolkata.');
  });
});

describe('call tail', () => {
  it('each line starts with when the call ended in the zone, named; the start line names the zone', async () => {
    const tail = start(['call', 'tail', '--campaign', campaignId, '--since', '2d', '--interval', '0.2', '--tz', 'Asia/Kolkata'], {
      env: { ...h.env, NO_COLOR: '1' }, tty: { stdout: true, columns: 200 }, realTime: true,
    });
    for (const c of calls) await tail.waitForOutput(c.call_id, 'stdout');
    expect(await tail.interrupt()).toBe(130);
    expect(tail.stderr()).toMatch(/Following calls that finish \(started since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d IST\) in campaign \S+; times are Asia\/Kolkata\./);
    const ended = JSON.parse((await forScript(['call', 'list', '--campaign', campaignId, '--json'])).stdout) as Array<{ call_id: string; end_time: string }>;
    for (const c of ended) {
      const line = tail.stdout().split('\n').find((l) => l.includes(c.call_id))!;
      expect(line.startsWith(`${clockTime(Date.parse(c.end_time), 'Asia/Kolkata')} IST  ${c.call_id}`)).toBe(true);
    }
  });
});

describe('campaign list', () => {
  it('shows when each campaign was created in the zone, named in the header', async () => {
    const created = (JSON.parse((await forScript(['campaign', 'list', '--json'])).stdout) as Array<{ id: string; created_at: string }>).find((c) => c.id === campaignId)!;
    const r = await onTerminal(['campaign', 'list', '--tz', 'Asia/Kolkata']);
    expect(r.stdout.split('\n')[0]).toMatch(/CREATED \(Asia\/Kolkata\)$/);
    const line = r.stdout.split('\n').find((l) => l.includes(campaignId))!;
    expect(line.endsWith(formatDateTime(Date.parse(created.created_at), 'Asia/Kolkata', { minutes: true }))).toBe(true);
  });
});

describe('campaign report', () => {
  it('markdown and the page give hours in the zone and name it; JSON keeps UTC', async () => {
    const md = await forScript(['campaign', 'report', campaignId, '--format', 'md', '--tz', 'Asia/Kolkata']);
    expect(md.exitCode, md.stderr).toBe(0);
    expect(md.stdout).toContain('**Calls per hour (Asia/Kolkata)**');
    const hour = (t: string, zone: string) => `| ${formatDateTime(Date.parse(t), zone).slice(0, 13)}:00 |`;
    expect(md.stdout).toContain(hour(calls[0]!.start_time, 'Asia/Kolkata'));

    const page = join(dir, 'report.html');
    const html = await forScript(['campaign', 'report', campaignId, '--html', page, '--tz', 'Asia/Kolkata', '--json']);
    expect(html.exitCode, html.stderr).toBe(0);
    const text = readFileSync(page, 'utf8');
    expect(text).toContain('Calls per hour (Asia/Kolkata)');
    // The calls table's time column names the zone's abbreviation; each cell is the time there.
    expect(text).toContain('started <span class="muted">(IST)</span>');
    expect(text).toContain(`">${formatDateTime(Date.parse(calls[0]!.start_time), 'Asia/Kolkata')}</td>`);
    const json = JSON.parse(html.stdout);
    const utc = JSON.parse((await forScript(['campaign', 'report', campaignId, '--json'])).stdout);
    expect(json.campaigns[0].calls_per_hour).toEqual(utc.campaigns[0].calls_per_hour);
    expect(json.campaigns[0].calls_per_hour[0].hour).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00Z$/);
  });
});

describe('the zone setting', () => {
  const cfg = () => ({ VOICECTL_CONFIG_DIR: join(dir, 'config') });

  it('config set timezone checks and canonicalizes it; config list shows it and what overrides it', async () => {
    const set = await forScript(['config', 'set', 'timezone', 'asia/calcutta'], cfg());
    expect(set.exitCode, set.stderr).toBe(0);
    expect((await forScript(['config', 'get', 'timezone'], cfg())).stdout.trim()).toBe('Asia/Kolkata');
    const bad = await forScript(['config', 'set', 'timezone', 'Mars/Olympus'], cfg());
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('"Mars/Olympus" is not a time zone');
    const list = await forScript(['config', 'list'], { ...cfg(), VOICECTL_TZ: 'UTC' });
    expect(list.stdout).toMatch(/timezone\s+Asia\/Kolkata/);
    expect(list.stderr).toContain('VOICECTL_TZ overrides timezone');
  });

  it('precedence: --tz, then VOICECTL_TZ, then the profile, then the system (TZ)', async () => {
    const header = async (args: string[], env: Record<string, string | undefined>) => (await onTerminal(['call', 'list', '--campaign', campaignId, ...args], env)).stdout.split('\n')[0];
    expect(await header([], cfg())).toMatch(/^TIME \(Asia\/Kolkata\)/);
    expect(await header([], { ...cfg(), VOICECTL_TZ: 'Europe/Kiev' })).toMatch(/^TIME \(Europe\/Kyiv\)/);
    expect(await header(['--tz', 'UTC'], { ...cfg(), VOICECTL_TZ: 'Europe/Kiev' })).toMatch(/^TIME \(UTC\)/);
    expect(await header([], { TZ: 'America/Chicago' })).toMatch(/^TIME \(America\/Chicago\)/);
  });

  it('a zone that is none is exit 2 with a readable message, never a stack', async () => {
    const flag = await forScript(['call', 'list', '--tz', 'Mars/Olympus']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain('"Mars/Olympus" is not a time zone');
    const env = await forScript(['call', 'list'], { VOICECTL_TZ: '+05:30' });
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toContain('VOICECTL_TZ "+05:30" is not a time zone');
    expect(env.stderr).toContain('Set VOICECTL_TZ to an IANA time zone name, for example Asia/Kolkata');
    expect(env.stderr).not.toMatch(/\n\s+at /);
    // Commands that show no time do not care.
    expect((await forScript(['agent', 'list', '--json'], { VOICECTL_TZ: '+05:30' })).exitCode).toBe(0);
  });
});
