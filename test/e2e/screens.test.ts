/**
 * Every screen a person reads, at a terminal 80 and 120 columns wide, with --tz
 * Asia/Kolkata, against the sandbox: each verb that prints a table or a line per item.
 * A test fails on a line wider than the terminal, on a column the verb's help names as
 * kept at any width ("Columns kept at any width: …") that is not there, and on a time
 * shown without its zone (or in another zone than the user's). Ids shortened to a unique
 * prefix are whole in --json; JSON, JSON lines and CSV are the same whatever the width
 * and the zone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { allCalls, givenKbItem, plantCalls, type Client } from '../helpers/given.js';
import { finishedCampaigns, FOLLOW_UP_AGENT } from '../helpers/finished-campaign.js';
import { run, start } from '../helpers/run.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { freePort } from './listen-helpers.js';

const ZONE = 'Asia/Kolkata';
const LONG = 'Quarterly renewal reminders for premium policy holders in the western region';

let h: Harness;
let api: Client;
let dir: TempDir;
let campaignId = '';
let endpointId = '';
let log = '';
const FOLDER = 'policies/western-region/renewals/2026';

beforeAll(async () => {
  h = await harness({ timeScale: 600, seed: 41, allowLocalWebhooks: true });
  api = h.api;
  dir = tempDir();
  const world = await finishedCampaigns(h.sandbox, [{
    name: LONG, contacts: 16, name_of: (i) => `Srinivasaraghavan Venkataramanan ${i}`, extra_of: (i) => ({ city: 'Thiruvananthapuram district office', policy: `P-${i}` }),
  }], { agent: { ...FOLLOW_UP_AGENT, name: `${LONG} agent` }, recordings: true });
  campaignId = world.campaigns[0]!.id;
  // Calls at three distinct past times, so the order of `call list` shows.
  const now = Date.now();
  plantCalls(h.sandbox, [now - 3 * 3_600_000, now - 2 * 3_600_000, now - 3_600_000]);
  await givenKbItem(h.sandbox, h.sandbox.apiKey, FOLDER);
  // A receiver that is not there: every delivery fails, with a reason to show.
  const created = await h.run(['webhook', 'create', '--url', 'http://127.0.0.1:9/receiver/for/every/event/of/the/renewal/campaign', '--allow-local', '--json']);
  expect(created.exitCode, created.stderr).toBe(0);
  endpointId = JSON.parse(created.stdout).id;
  expect((await h.run(['webhook', 'test', endpointId])).exitCode).toBe(0);
  // An empty log: every event of the campaign is missing from it.
  log = join(dir.dir, 'events.jsonl');
  writeFileSync(log, '');
}, 180_000);

afterAll(async () => {
  await h?.close();
  dir?.remove();
});

const env = () => ({ ...h.env, NO_COLOR: '1', CI: '' });

/** A person at a terminal `columns` wide, in India. */
function onTerminal(argv: string[], columns: number) {
  return run([...argv, '--tz', ZONE, '--no-input'], { env: env(), cwd: dir.dir, tty: { stdout: true, columns }, realTime: true });
}

/** Every table verb: its command line, and the verb (for its help). */
const tables = (): Array<{ argv: string[]; verb: string[]; exit?: number }> => [
  { argv: ['agent', 'list'], verb: ['agent', 'list'] },
  { argv: ['voice', 'list'], verb: ['voice', 'list'] },
  { argv: ['kb', 'list', '--folder', FOLDER], verb: ['kb', 'list'] },
  { argv: ['campaign', 'list'], verb: ['campaign', 'list'] },
  { argv: ['campaign', 'contacts', campaignId], verb: ['campaign', 'contacts'] },
  { argv: ['campaign', 'followups', campaignId], verb: ['campaign', 'followups'] },
  { argv: ['call', 'list'], verb: ['call', 'list'] },
  { argv: ['call', 'list', '--campaign', campaignId], verb: ['call', 'list'] },
  { argv: ['webhook', 'list'], verb: ['webhook', 'list'] },
  { argv: ['webhook', 'deliveries', endpointId], verb: ['webhook', 'deliveries'] },
  { argv: ['events', 'reconcile', '--log', log, '--campaign', campaignId, '--endpoint', endpointId], verb: ['events', 'reconcile'], exit: 1 },
];

/** The columns a verb's help says its table keeps at any width. */
async function keptByHelp(verb: string[]): Promise<string[]> {
  const r = await run([...verb, '--help'], { env: env() });
  const text = r.stdout.replace(/\s+/g, ' ');
  const m = /Columns kept at any width: ([^.]+)\./.exec(text);
  expect(m, `${verb.join(' ')} --help names the columns its table keeps`).not.toBeNull();
  return m![1]!.split(', ').map((s) => s.trim());
}

/** The header's columns: their names and where each starts. */
function headerColumns(header: string): Array<{ name: string; at: number }> {
  const out: Array<{ name: string; at: number }> = [];
  for (const m of header.matchAll(/\S+(?: \S+)*/g)) out.push({ name: m[0], at: m.index! });
  return out;
}

const TIME = /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g;

/**
 * Problems with the times of a table: each is in a column whose header names the user's
 * zone, or is followed by it (IST), or is in the contact's zone which the cell names;
 * never an ISO time with Z or an offset, never another zone.
 */
function unnamedTimes(lines: string[]): string[] {
  const cols = headerColumns(lines[0]!);
  const problems: string[] = [];
  for (const line of lines.slice(1)) {
    for (const m of line.matchAll(TIME)) {
      const col = [...cols].reverse().find((c) => c.at <= m.index!);
      const header = col?.name ?? '';
      const after = line.slice(m.index! + m[0].length);
      if (m[1]) problems.push(`a machine time "${m[0]}" in ${header}: ${line}`);
      else if (header.includes(`(${ZONE})`) || /^ IST\b/.test(after)) continue;
      else if (header.includes('(contact\'s zone)') && /^ [A-Z][A-Za-z_]+\/[A-Za-z_]+/.test(after)) continue;
      else problems.push(`"${m[0]}" in ${header || 'no column'} without the zone: ${line}`);
    }
  }
  return problems;
}

describe('tables at 80 and 120 columns, --tz Asia/Kolkata', () => {
  for (const columns of [80, 120]) {
    it(`fit ${columns} columns, keep the columns their help names, and name the zone of every time`, async () => {
      for (const t of tables()) {
        const what = `${t.argv.join(' ')} at ${columns}`;
        const r = await onTerminal(t.argv, columns);
        expect(r.exitCode, `${what}: ${r.stderr}`).toBe(t.exit ?? 0);
        const lines = r.stdout.trimEnd().split('\n');
        expect(lines.length, `${what}: rows`).toBeGreaterThan(1);
        for (const line of lines) expect(line.length, `${what}: ${line}`).toBeLessThanOrEqual(columns);
        const shown = headerColumns(lines[0]!).map((c) => c.name);
        for (const kept of await keptByHelp(t.verb)) {
          expect(shown.some((s) => s === kept || s.startsWith(`${kept} (`)), `${what}: ${kept} is missing from ${lines[0]}`).toBe(true);
        }
        expect(unnamedTimes(lines), what).toEqual([]);
      }
    }, 120_000);
  }

  it('call list at 80: ids cut to a prefix unique in the list, whole in --json, with a line saying so', async () => {
    const r = await onTerminal(['call', 'list', '--campaign', campaignId], 80);
    const json = JSON.parse((await onTerminal(['call', 'list', '--campaign', campaignId, '--json'], 80)).stdout) as Array<{ call_id: string }>;
    expect(json.length).toBeGreaterThan(1);
    const body = r.stdout.trimEnd().split('\n').slice(1);
    const prefixes = body.map((l) => l.split(/\s{2,}/)[1]!);
    expect(new Set(prefixes).size).toBe(json.length);
    for (const p of prefixes) {
      expect(p.length).toBeLessThan(json[0]!.call_id.length);
      expect(json.filter((c) => c.call_id.startsWith(p))).toHaveLength(1);
    }
    expect(r.stderr).toMatch(/Ids are shortened to a prefix unique in this list; --json .* shows them whole\./);
    // Wide enough for the whole ids: nothing is cut, nothing is said.
    const wide = await onTerminal(['call', 'list', '--campaign', campaignId], 250);
    for (const c of json) expect(wide.stdout).toContain(c.call_id);
    expect(wide.stderr).not.toMatch(/Ids are shortened/);
  });

  it('campaign followups at 80: NAME and the whole requested time, on one line each', async () => {
    const rows = JSON.parse((await onTerminal(['campaign', 'followups', campaignId, '--json'], 80)).stdout) as Array<{ name: string; requested_time: string | null; zone: string }>;
    const timed = rows.filter((x) => x.requested_time);
    expect(timed.length).toBeGreaterThan(0);
    const r = await onTerminal(['campaign', 'followups', campaignId], 80);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(rows.length + 1);
    for (const x of timed) expect(r.stdout).toContain(`${x.requested_time!.slice(0, 16).replace('T', ' ')} ${x.zone}`);
    expect(lines[0]).toMatch(/^PHONE\s+NAME\s+FOLLOW-UP\s+REQUESTED \(contact's zone\)/);
  });

  it('call list: newest first at a terminal; --json keeps the service\'s order', async () => {
    const r = await onTerminal(['call', 'list', '--limit', '200'], 120);
    const times = r.stdout.trimEnd().split('\n').slice(1).map((l) => l.slice(0, 19));
    expect(times.length).toBeGreaterThan(3);
    expect([...times].sort().reverse()).toEqual(times);
    const json = JSON.parse((await onTerminal(['call', 'list', '--limit', '200', '--json'], 120)).stdout) as Array<{ call_id: string }>;
    const served = (await api('GET', '/calls?limit=200')).body.calls as Array<{ call_id: string }>;
    expect(json.map((c) => c.call_id)).toEqual(served.map((c) => c.call_id));
    // The service lists the planted calls oldest first: the table turned them round.
    const planted = json.map((c) => c.call_id).filter((id) => id.startsWith('call_planted_'));
    expect(planted).toEqual(['call_planted_0', 'call_planted_1', 'call_planted_2']);
    const rows = r.stdout.split('\n');
    const at = (id: string) => rows.findIndex((l) => l.includes(id.slice(0, 14)));
    expect(at('call_planted_2')).toBeLessThan(at('call_planted_1'));
    expect(at('call_planted_1')).toBeLessThan(at('call_planted_0'));
  });

  it('JSON, JSON lines and CSV are the same at any width and in any zone', async () => {
    for (const t of tables()) {
      for (const format of [['--json'], ['-o', 'jsonl'], ['-o', 'csv']]) {
        const terminal = await onTerminal([...t.argv, ...format], 80);
        // campaign followups' CSV is a sheet for people, its call times in the user's zone
        // (which its header names): it is compared in the same zone, at another width.
        const zoned = t.verb[1] === 'followups' && format[1] === 'csv' ? ['--tz', ZONE] : [];
        const piped = await run([...t.argv, ...format, ...zoned, '--no-input'], { env: { ...h.env, CI: '' }, cwd: dir.dir });
        expect(terminal.exitCode, `${t.argv.join(' ')} ${format.join(' ')}: ${terminal.stderr}`).toBe(t.exit ?? 0);
        // A delivery's attempts go on between the two reads (the sandbox retries at 600x): its
        // record is compared without the fields that move, the rest byte for byte.
        const moving = t.verb[0] === 'webhook' && t.verb[1] === 'deliveries' && format[0] !== '-o' || (t.verb[1] === 'deliveries' && format[1] !== 'csv');
        const still = (text: string) => (moving ? text.replace(/"(attempts|status|next_retry_at|last_response_code|last_attempt_at|updated_at)":("[^"]*"|[^,}]*)/g, '"$1":_') : text);
        expect(still(terminal.stdout), `${t.argv.join(' ')} ${format.join(' ')}`).toBe(still(piped.stdout));
        expect(terminal.stdout).not.toMatch(/Ids are shortened/);
      }
    }
    const csv = await onTerminal(['events', 'reconcile', '--log', log, '--campaign', campaignId, '-o', 'csv'], 80);
    expect(csv.stdout.split('\n')[0]).toBe('type,object_id,campaign,happened');
    expect(csv.stdout.split('\n')[1]).toMatch(/,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  }, 120_000);
});

describe('lines per item at 80 and 120 columns', () => {
  it('call tail: each line fits, its time named', async () => {
    for (const columns of [80, 120]) {
      const tail = start(['call', 'tail', '--since', '1d', '--interval', '0.2', '--tz', ZONE, '--no-input'], { env: env(), cwd: dir.dir, tty: { stdout: true, columns }, realTime: true });
      await tail.waitForOutput(/IST/, 'stdout');
      expect(await tail.interrupt()).toBe(130);
      for (const line of tail.stdout().trimEnd().split('\n')) {
        expect(line.length, line).toBeLessThanOrEqual(columns);
        expect(line, 'the time, named').toMatch(/^\d\d:\d\d:\d\d IST /);
      }
    }
  });

  it('listen --from-api: the banner and each line in the user\'s zone; at 120 the number and the outcome whole', async () => {
    const calls = (await allCalls(api, `campaign_id=${campaignId}`)).filter((c) => c.end_time);
    for (const columns of [80, 120]) {
      const cursorDir = tempDir();
      try {
        const listen = start(['listen', '--from-api', '--since', '1d', '--interval', '0.2', '--log', join(cursorDir.dir, 'l.jsonl'), '--tz', ZONE, '--no-input'], {
          env: env(), cwd: dir.dir, tty: { stdout: true, columns }, realTime: true,
        });
        for (const c of calls) await listen.waitForOutput(c.phone_number, 'stdout');
        expect(await listen.interrupt()).toBe(130);
        expect(listen.stderr()).toMatch(/from calls that started at \d{4}-\d{2}-\d{2} \d\d:\d\d:\d\d IST\./);
        expect(listen.stderr()).not.toMatch(/started at \d{4}-\d{2}-\d{2}T/);
        const lines = listen.stdout().trimEnd().split('\n');
        for (const line of lines) {
          expect(line.length, line).toBeLessThanOrEqual(columns);
          expect(line).toMatch(/^\d\d:\d\d:\d\d IST  200  /);
        }
        if (columns === 120) {
          for (const c of calls) {
            const line = lines.find((l) => l.includes('call.ended') && l.includes(c.phone_number))!;
            expect(line, c.phone_number).toContain(`${c.phone_number}  ${[c.status, c.outcome].filter(Boolean).join('/')}`);
          }
        }
      } finally {
        cursorDir.remove();
      }
    }
  }, 60_000);

  it('listen: a call.ended line at 120 columns keeps the number and the outcome; the ids come last', async () => {
    const port = await freePort();
    const listen = start(['listen', '--port', String(port), '--skip-verify', '--tz', ZONE], { env: env(), cwd: dir.dir, tty: { stdout: true, columns: 120 }, realTime: true });
    await listen.waitForOutput('Ready.', 'stderr');
    const event = {
      id: 'evt_0123456789abcdef01234567', type: 'call.ended', created_at: new Date().toISOString(),
      data: { call_id: '6f1c2a4b-8d3e-4f5a-9b6c-7d8e9f0a1b2c', campaign_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', phone_number: '+919876543210', status: 'completed', outcome: 'callback_scheduled', duration_seconds: 95 },
    };
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'service-event-id': event.id, 'service-event-type': event.type }, body: JSON.stringify(event),
    });
    expect(res.status).toBe(200);
    await listen.waitForOutput('+919876543210', 'stdout');
    expect(await listen.interrupt()).toBe(130);
    const [line] = listen.stdout().trimEnd().split('\n');
    expect(line!.length).toBeLessThanOrEqual(120);
    // The event id cut to its kind and its end (--json has it whole), so the number and the outcome are whole.
    expect(line).toMatch(/^\d\d:\d\d:\d\d IST  200  call\.ended\s+evt_…01234567  \+919876543210  completed\/callback_scheduled  95s .*… \(unverified\)$/);
  });
});

describe('times a person reads, in the user\'s zone', () => {
  it('the xlsx export\'s date columns are in the zone VOICECTL_TZ names, named in their headers', async () => {
    const { default: ExcelJS } = await import('exceljs');
    const out = join(dir.dir, 'calls.xlsx');
    const r = await run(['call', 'export', '--campaign', campaignId, '--out', out], { env: { ...env(), VOICECTL_TZ: ZONE }, cwd: dir.dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out);
    const head = (book.worksheets[0]!.getRow(1).values as unknown[]).slice(1) as string[];
    expect(head).toEqual(expect.arrayContaining([`start_time (${ZONE})`, `end_time (${ZONE})`]));
    expect(head.filter((x) => /\(UTC\)/.test(x))).toEqual([]);
  });

  it('the demo\'s live view names the profile\'s zone', async () => {
    const cfg = tempDir();
    try {
      const e = { ...env(), VOICECTL_CONFIG_DIR: cfg.dir };
      expect((await run(['config', 'set', 'timezone', ZONE], { env: e })).exitCode).toBe(0);
      const r = await run(['demo', '--out', join(cfg.dir, 'calls.csv')], { env: e, cwd: cfg.dir, tty: { stdout: true, stderr: true, columns: 120 }, realTime: true });
      expect(r.exitCode, r.stderr).toBe(0);
      const screen = r.stdout + r.stderr;
      expect(screen).toContain(`(times ${ZONE})`);
      expect(screen).not.toContain('(times UTC)');
      // The file is for scripts: UTC ISO 8601, whatever the zone.
      expect(readFileSync(join(cfg.dir, 'calls.csv'), 'utf8')).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/);
    } finally {
      cfg.remove();
    }
  }, 120_000);
});

describe('order and noise', () => {
  it('a group\'s help lists its commands, then says where the global options are; `voicectl help globals` lists them', async () => {
    const r = await run(['campaign', '--help'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain('Global Options:');
    expect(r.stdout).not.toContain('--base-url');
    const commands = r.stdout.indexOf('Commands:');
    expect(commands).toBeGreaterThan(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Global options (--json, -o, --tz, --profile, --yes, …): voicectl help globals');
    expect(r.stdout.split('\n').filter((l) => l.trim() !== '').slice(0, 12).join('\n')).toContain('Commands:');
    const globals = await run(['help', 'globals'], { env: env() });
    expect(globals.exitCode).toBe(0);
    for (const flag of ['--json', '--output <format>', '--tz <zone>', '--profile <name>', '--yes', '--no-input', '--base-url <url>']) expect(globals.stdout).toContain(flag);
    // Listed once, as its own options.
    expect(globals.stdout).not.toContain('Global Options:');
    // A verb's help still lists them: its own text tells you to pass --yes or --json.
    expect((await run(['campaign', 'launch', '--help'], { env: env() })).stdout).toContain('Global Options:');
  });

  it('no "(s)" plurals in what voicectl says', async () => {
    const { readdirSync } = await import('node:fs');
    const files = (readdirSync('src', { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join('src', f));
    const found: string[] = [];
    for (const f of files) {
      for (const [i, line] of readFileSync(f, 'utf8').split('\n').entries()) {
        // The text of the line's strings and templates (their ${…} left out): a word with
        // "(s)" or "(es)" there is a plural a person reads; "http(s)" is a scheme.
        const literals = [...line.matchAll(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0].replace(/\$\{[^}]*\}/g, ' '));
        if (literals.some((l) => /\b[a-z]{2,}\(e?s\)/.test(l.replace(/https?\(s\)/g, '')))) found.push(`${f}:${i + 1}: ${line.trim()}`);
      }
    }
    expect(found).toEqual([]);
  });
});
