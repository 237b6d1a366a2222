/**
 * `watch` end to end against the sandbox: the built binary in JSON and plain modes, and
 * the live view in process with fake terminal streams (real time, the sandbox's fast clock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, harness, type Harness } from '../helpers/cli.js';
import { ok } from '../helpers/given.js';
import { run } from '../helpers/run.js';
import { finalScreen, stripAnsi } from '../helpers/screen.js';

let h: Harness;
let agentId = '';

beforeAll(async () => {
  h = await harness({ timeScale: 600, seed: 11 });
  const agent = await api('POST', '/agents', {
    name: 'Renewals desk', voice_name: 'Priya', greeting: 'Namaste!', call_purpose: 'Renewals',
    prompt: 'Ask whether the customer wants to renew.', tools: ['schedule_callback'],
  });
  agentId = agent.id;
});
afterAll(async () => h.close());

const api = (method: string, path: string, body?: unknown) => ok(h.api, method, path, body);

async function campaign(contacts: number, launch = true): Promise<string> {
  const c = await api('POST', '/campaigns/json', {
    name: `Renewals ${contacts}`,
    agent_id: agentId,
    contacts: Array.from({ length: contacts }, (_, i) => ({ phone_number: `+9198${String(7000000 + i).padStart(8, '0')}`, name: `C${i}`, extra: { i } })),
  });
  if (launch) await api('POST', `/campaigns/${c.id}/launch`);
  return c.id;
}

/** The campaign's calls as the server lists them, by call_id (a listing may repeat an item). */
async function callsOf(id: string): Promise<Array<Record<string, any>>> {
  const all = new Map<string, Record<string, any>>();
  for (let offset = 0; ; offset += 200) {
    const page = await api('GET', `/calls?campaign_id=${id}&limit=200&offset=${offset}`);
    for (const c of page.calls) all.set(c.call_id, c);
    if (offset + 200 >= page.total) return [...all.values()];
  }
}

describe('watch against the sandbox', () => {
  it('--json: every finished call exactly once, and a summary equal to the campaign', async () => {
    const id = await campaign(150);
    const r = await h.run(['watch', id, '--json', '--interval', '0.1']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const calls = events.filter((e) => e.type === 'call');
    const server = await callsOf(id);
    expect(calls.map((c) => c.call_id).sort()).toEqual(server.map((c) => c.call_id).sort());
    const done = events.at(-1);
    expect(done.type).toBe('completed');
    const final = await api('GET', `/campaigns/${id}`);
    expect(done.summary.contacts_by_status).toEqual(final.contacts_by_status);
    expect(done.summary.total_contacts).toBe(150);
    const outcomes: Record<string, number> = {};
    for (const c of server) {
      const label = c.outcome ?? c.end_reason ?? c.status;
      outcomes[label] = (outcomes[label] ?? 0) + 1;
    }
    expect(done.summary.outcomes).toEqual(outcomes);
    expect(done.summary.connected).toBe(final.contacts_by_status.completed);
  });

  it('waits for a draft to be launched, then follows it to completion', async () => {
    const id = await campaign(20, false);
    const child = execa(process.execPath, [BIN, 'watch', id, '--interval', '0.1'], { reject: false, extendEnv: false, env: h.env });
    // Launch once the watcher has seen the draft.
    while (!h.sandbox.requests.some((q) => q.path === `/campaigns/${id}` && q.method === 'GET')) await new Promise((r) => setTimeout(r, 20));
    await api('POST', `/campaigns/${id}/launch`);
    const r = await child;
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('is a draft: it has not been launched');
    expect(r.stdout.split('\n').filter((l) => l.startsWith('call  '))).toHaveLength(20);
    expect(r.stdout).toContain('Campaign "Renewals 20" completed: 20 contacts, 20 finished calls');
  });

  it('--fail-if decides the exit code from the finished campaign', async () => {
    const id = await campaign(60);
    const first = await h.run(['watch', id, '--json', '--interval', '0.1']);
    expect(first.exitCode).toBe(0);
    const counts = (await api('GET', `/campaigns/${id}`)).contacts_by_status;
    const atLine = await h.run(['watch', id, '--fail-if', `no_answer>=${counts.no_answer}`]);
    expect(atLine.exitCode).toBe(1);
    expect(atLine.stderr).toContain(`crossed --fail-if: no_answer>=${counts.no_answer}`);
    const below = await h.run(['watch', id, '--fail-if', `no_answer>${counts.no_answer},completed<1%`]);
    expect(below.exitCode).toBe(0);
    const bad = await h.run(['watch', id, '--fail-if', 'no_answer>>1']);
    expect(bad.exitCode).toBe(2);
  });

  it('--timeout is exit 1 with a message', async () => {
    const id = await campaign(5, false);
    const r = await h.run(['watch', id, '--timeout', '0.3', '--interval', '0.1']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('timed out after 0.3s: campaign "Renewals 5" is still draft (0 of 5 contacts finished)');
  });

  it('a campaign that does not exist is exit 4', async () => {
    const r = await h.run(['watch', '7d7c1c55-0000-4000-8000-000000000000']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('no campaign with id 7d7c1c55-0000-4000-8000-000000000000');
  });

  it('on a terminal: redraws to completion, leaves the summary on screen and the cursor shown', async () => {
    const id = await campaign(80);
    const r = await run(['watch', id, '--interval', '0.05'], {
      env: { VOICECTL_BASE_URL: h.sandbox.url, VOICECTL_API_KEY: h.sandbox.apiKey },
      tty: { stdout: true, stderr: true, columns: 90, rows: 30 },
      realTime: true,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.startsWith('\x1b[?25l')).toBe(true);
    expect(r.stdout.endsWith('\x1b[?25h')).toBe(true);
    const text = finalScreen(r.stdout).map(stripAnsi).join('\n');
    expect(text).toContain('Campaign Renewals 80  completed');
    expect(text).toContain('80/80 finished');
    expect(text).toContain('Campaign "Renewals 80" completed: 80 contacts, 80 finished calls');
    expect(text).toMatch(/Connect rate {6}\d+\.\d% \(\d+ of 80\)/);
    expect(text).toMatch(/Average duration {2}\d+m\d\ds per connected call/);
  });
});
