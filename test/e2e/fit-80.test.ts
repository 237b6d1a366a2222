/**
 * Every list fits an 80-column terminal: columns are left out by their declared rank,
 * then text is cut, ids never. The lists run in process with a terminal-sized stdout,
 * against a sandbox holding long names, finished calls and failed webhook deliveries.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run.js';
import { harness, type Harness } from '../helpers/cli.js';

let h: Harness;
let dir: string;
const ids: Record<string, string> = {};

async function onTerminal(argv: string[], columns: number) {
  const r = await runInProcess([...argv, '--no-input'], { env: { ...h.env, NO_COLOR: '1', CI: '' }, cwd: dir, tty: { stdout: true, columns }, realTime: true });
  return { exitCode: r.code, stdout: r.stdout, stderr: r.stderr };
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

  it('fit, with their ids whole', async () => {
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
    for (const id of callIds) expect(calls.stdout).toContain(id);
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
