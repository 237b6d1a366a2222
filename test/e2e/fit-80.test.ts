/**
 * Every list fits an 80-column terminal: columns are left out by their declared rank,
 * then text is cut; ids are cut only to a prefix unique in the list. The lists run in process with a terminal-sized stdout,
 * against a sandbox holding long names, finished calls and failed webhook deliveries.
 * So do the lines people read as they come (`call tail`, `listen`) and the problems
 * `contacts validate` lists; --json keeps every text whole.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, start } from '../helpers/run.js';
import { freePort } from './listen-helpers.js';
import { harness, type Harness } from '../helpers/cli.js';

let h: Harness;
let dir: string;
const ids: Record<string, string> = {};

async function onTerminal(argv: string[], columns: number) {
  const r = await run([...argv, '--no-input'], { env: { ...h.env, NO_COLOR: '1', CI: '' }, cwd: dir, tty: { stdout: true, columns }, realTime: true });
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

async function ok(args: string[]): Promise<string> {
  const r = await h.run(args);
  expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  h = await harness({ allowLocalWebhooks: true });
  dir = mkdtempSync(join(tmpdir(), 'voicectl-fit-'));
  const long = 'Quarterly renewal reminders for premium policy holders in the western region';
  const agent = JSON.parse(await ok(['agent', 'create', '--name', `${long} agent`, '--voice', 'Priya', '--greeting', 'Namaste', '--call-purpose', 'Renewals', '--prompt', 'Remind about the renewal.', '--json']));
  ids.agent = agent.id;
  const csv = join(dir, 'people.csv');
  writeFileSync(csv, ['phone_number,contact_name,city', ...Array.from({ length: 6 }, (_, i) => `+9198765432${10 + i},Srinivasaraghavan Venkataramanan ${i},Thiruvananthapuram district office`)].join('\n'));
  const campaign = JSON.parse(await ok(['campaign', 'create', '--name', long, '--agent', ids.agent, '--csv', csv, '--launch', '--ignore-calling-hours', '--yes', '--json']));
  ids.campaign = campaign.id;
  for (let i = 0; i < 100; i++) {
    const c = JSON.parse(await ok(['campaign', 'get', ids.campaign, '--json']));
    if (c.status === 'completed') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const doc = join(dir, 'policy-renewal-terms-and-conditions-for-the-western-region.txt');
  writeFileSync(doc, 'Renewal terms.');
  await ok(['kb', 'upload', doc, '--folder', 'policies/western-region/renewals/2026', '--wait']);
  // A receiver that is not there: every delivery fails, with a reason to show.
  const endpoint = JSON.parse(await ok(['webhook', 'create', '--url', 'http://127.0.0.1:9/receiver/for/every/event/of/the/renewal/campaign', '--allow-local', '--json']));
  ids.endpoint = endpoint.id;
  await ok(['webhook', 'test', ids.endpoint]);
}, 120_000);

afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lists on an 80-column terminal', () => {
  const lists = () => [
    ['agent', 'list'],
    ['voice', 'list'],
    ['kb', 'list', '--folder', 'policies/western-region/renewals/2026'],
    ['campaign', 'list'],
    ['campaign', 'contacts', ids.campaign!],
    ['call', 'list'],
    ['webhook', 'list'],
    ['webhook', 'deliveries', ids.endpoint!],
  ];

  it('fit, their ids cut to a prefix unique in the list (whole in --json)', async () => {
    for (const argv of lists()) {
      const r = await onTerminal(argv, 80);
      expect(r.exitCode, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.length, argv.join(' ')).toBeGreaterThan(1);
      for (const line of lines) expect(line.length, `${argv.join(' ')}: ${line}`).toBeLessThanOrEqual(80);
    }
    const calls = await onTerminal(['call', 'list'], 80);
    const callIds = (JSON.parse(await ok(['call', 'list', '--json'])) as { call_id: string }[]).map((c) => c.call_id);
    expect(callIds.length).toBeGreaterThan(0);
    const shown = calls.stdout.trimEnd().split('\n').slice(1).map((l) => l.split(/\s{2,}/)[1]!);
    expect(shown).toHaveLength(callIds.length);
    for (const id of callIds) expect(shown.filter((p) => id.startsWith(p))).toHaveLength(1);
    expect(calls.stderr).toContain('Ids are shortened to a prefix unique in this list');
  });

  it('show the columns they left out on a wide terminal: contact names, agent names, why deliveries failed', async () => {
    const calls = await onTerminal(['call', 'list'], 200);
    expect(calls.stdout.split('\n')[0]).toMatch(/CONTACT/);
    expect(calls.stdout).toContain('Srinivasaraghavan');

    const campaigns = await onTerminal(['campaign', 'list'], 200);
    expect(campaigns.stdout).toContain('Quarterly renewal reminders for premium…'.slice(0, 20));
    expect(campaigns.stdout).toMatch(/AGENT/);
    expect(campaigns.stdout).not.toContain(ids.agent!);

    const campaign = await onTerminal(['campaign', 'get', ids.campaign!], 200);
    expect(campaign.stdout).toMatch(new RegExp(`agent\\s+Quarterly renewal .* agent \\(${ids.agent}\\)`));

    const deliveries = await onTerminal(['webhook', 'deliveries', ids.endpoint!], 200);
    expect(deliveries.stdout).toMatch(/WHY IT FAILED/);
    expect(deliveries.stdout.split('\n')[1]).toMatch(/\S+\s*$/);
  });

  it('leave nothing out for a script: --json is the service\'s objects', async () => {
    const r = await onTerminal(['campaign', 'list', '--json'], 80);
    const [c] = JSON.parse(r.stdout);
    expect(c.agent_id).toBe(ids.agent);
    expect(c).not.toHaveProperty('agent_name');
  });
});

/** Every line of `text` at most `columns` wide; returns the lines. */
function fits(text: string, columns: number, what: string): string[] {
  const lines = text.trimEnd().split('\n');
  for (const line of lines) expect(line.length, `${what}: ${line}`).toBeLessThanOrEqual(columns);
  return lines;
}

describe('lines and tables people read, on a narrow terminal', () => {
  it('contacts validate: the problems fit, cut with …; --json has them whole', async () => {
    const header = 'Primary contact telephone number of the policy holder';
    const junk = 'not a number but a note someone typed into the phone column by mistake, twice';
    const csv = join(dir, 'bad-phones.csv');
    writeFileSync(csv, [`${header},contact_name`, `"${junk}",Srinivasaraghavan Venkataramanan`, '12,Short', `+919876543210,Fine`].join('\n'));
    const args = ['contacts', 'validate', csv, '--default-country', 'IN', '--phone-column', header];
    for (const columns of [80, 60]) {
      const r = await onTerminal(args, columns);
      expect(r.exitCode).toBe(2);
      // The table: from its header to the blank line after it (the summary above names the file, whole).
      const all = r.stdout.split('\n');
      const start = all.findIndex((l) => l.startsWith('ROW'));
      expect(start).toBeGreaterThan(0);
      const lines = fits(all.slice(start, all.indexOf('', start)).join('\n'), columns, `contacts validate at ${columns}`);
      expect(lines).toHaveLength(3);
      const row = lines.find((l) => l.startsWith('2 '))!;
      expect(row).toContain('…');
      expect(row).toMatch(/^2\s+Primary contact/);
    }
    const wide = await onTerminal(args, 300);
    expect(wide.stdout).toContain(header.slice(0, 19));
    const json = await onTerminal([...args, '--json'], 60);
    const report = JSON.parse(json.stdout);
    expect(report.errors[0]).toMatchObject({ row: 2, column: header, value: junk });
  });

  it('call tail: one line per call within the width, ids and numbers whole; --json whole', async () => {
    const calls = JSON.parse(await ok(['call', 'list', '--campaign', ids.campaign!, '--json'])) as Array<{ call_id: string; phone_number: string; summary: string }>;
    const tail = start(['call', 'tail', '--since', '1d', '--interval', '0.2', '--no-input'], { env: { ...h.env, NO_COLOR: '1', CI: '' }, cwd: dir, tty: { stdout: true, columns: 80 }, realTime: true });
    for (const c of calls) await tail.waitForOutput(c.call_id, 'stdout');
    expect(await tail.interrupt()).toBe(130);
    const lines = fits(tail.stdout(), 80, 'call tail');
    for (const c of calls) {
      const line = lines.find((l) => l.includes(c.call_id))!;
      expect(line).toContain(`${c.call_id}  ${c.phone_number}  `);
      expect(line).toContain('…');
    }

    const json = start(['call', 'tail', '--since', '1d', '--interval', '0.2', '--json'], { env: { ...h.env, CI: '' }, cwd: dir, tty: { stdout: true, columns: 80 }, realTime: true });
    for (const c of calls) await json.waitForOutput(c.call_id, 'stdout');
    await json.interrupt();
    const records = json.stdout().trim().split('\n').map((l) => JSON.parse(l));
    for (const c of calls) expect(records.find((r) => r.call_id === c.call_id).summary).toBe(c.summary);
  });

  it('listen: an event\'s line fits, its details cut with …; --json has the event whole', async () => {
    const name = 'Quarterly renewal reminders for premium policy holders in the western region';
    const event = {
      id: 'evt_fit_1', type: 'campaign.completed', created_at: new Date().toISOString(),
      data: { id: ids.campaign, name, status: 'completed', contacts_by_status: { completed: 4, no_answer: 2 } },
    };
    for (const json of [false, true]) {
      const port = await freePort();
      const listen = start(['listen', '--port', String(port), '--skip-verify', ...(json ? ['--json'] : [])], {
        env: { ...h.env, NO_COLOR: '1', CI: '' }, cwd: dir, tty: { stdout: true, columns: 80 }, realTime: true,
      });
      await listen.waitForOutput('Ready.', 'stderr');
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-event-id': event.id, 'service-event-type': event.type },
        body: JSON.stringify(event),
      });
      expect(res.status).toBe(200);
      await listen.waitForOutput('evt_fit_1', 'stdout');
      expect(await listen.interrupt()).toBe(130);
      if (json) {
        expect(JSON.parse(listen.stdout().trim()).data.name).toBe(name);
      } else {
        const [line] = fits(listen.stdout(), 80, 'listen');
        expect(line).toMatch(/^\d\d:\d\d:\d\d UTC  200  campaign\.completed\s+evt_fit_1  campaign /);
        expect(line).toMatch(/… \(unverified\)$/);
      }
    }
  });
});
