/**
 * `campaign create --csv` then `launch`, end to end against the sandbox until the
 * campaign completes, and the reads around it: get, contacts, list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { campaignDone } from '../helpers/given.js';

const NO_DISPATCH = 'sk_test_no_dispatch';
let h: Harness;
let id = '';

beforeAll(async () => {
  h = await harness({
    keys: [{ key: NO_DISPATCH, org: 'org_sandbox', scopes: ['agents:read', 'agents:write', 'calls:write', 'calls:read'] }],
  });
  const r = await h.run(['agent', 'create', '--name', 'Launcher', '--voice', 'Ananya', '--greeting', 'Hello!', '--call-purpose', 'Leads', '--prompt', 'Qualify.', '--json']);
  expect(r.exitCode).toBe(0);
});
afterAll(async () => h.close());

const launches = () => h.sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/launch'));

describe('create --csv, then launch, to completion', () => {
  it('creates the campaign as a draft', async () => {
    const r = await h.run(['campaign', 'create', '--name', 'Leads end to end', '--agent', 'Launcher', '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--json']);
    expect(r.exitCode).toBe(0);
    const created = JSON.parse(r.stdout) as { id: string; status: string };
    id = created.id;
    expect(created.status).toBe('draft');
  });

  it('shows a draft\'s counts as a table', async () => {
    const r = await h.run(['campaign', 'get', id]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^status\s+draft$/m);
    expect(r.stdout).toMatch(/^\s+pending\s+25\s+100%$/m);
    expect(r.stdout).toMatch(/^\s+total\s+25$/m);
    expect(r.stderr).toContain(`voicectl campaign launch ${id}`);
  });

  it('will not launch without --yes when no one can confirm, and names the flag', async () => {
    const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--no-input']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Launching "Leads end to end"');
    expect(r.stderr).toContain('dials 25 contacts');
    expect(r.stderr).toContain('Pass --yes to confirm (--no-input is set)');
    expect(launches()).toHaveLength(0);
  });

  it('a key without calls:dispatch is exit 3 and the message names the scope', async () => {
    const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--yes'], { env: { VOICECTL_API_KEY: NO_DISPATCH } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('lacks the "calls:dispatch" scope');
    const c = await h.run(['campaign', 'get', id, '--json']);
    expect(JSON.parse(c.stdout)).toMatchObject({ status: 'draft' });
  });

  it('launches with --yes and prints the next step', async () => {
    const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--yes', '--no-input']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`Launched "Leads end to end" (${id}): dialing 25 contacts.`);
    expect(r.stderr).toContain(`voicectl watch ${id}`);
    expect(r.stdout).toMatch(/^status\s+running$/m);
    expect(launches().filter((l) => l.headers['x-api-key'] === h.sandbox.apiKey)).toHaveLength(1);
  });

  it('refuses to launch it again, before sending anything', async () => {
    const before = launches().length;
    const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/cannot be launched: only a draft can be, and it (is already running|has already run to completion)/);
    expect(launches().length).toBe(before);
  });

  it('runs to completion: every contact called, with a call id', async () => {
    const c = await campaignDone(h.api, id);
    const counts = c.contacts_by_status as Record<string, number>;
    expect((counts.completed ?? 0) + (counts.no_answer ?? 0) + (counts.failed ?? 0)).toBe(25);
    const r = await h.run(['campaign', 'contacts', id, '--json']);
    expect(r.exitCode).toBe(0);
    const contacts = JSON.parse(r.stdout) as Array<{ phone_number: string; status: string; call_id?: string; extra: Record<string, string> }>;
    expect(contacts).toHaveLength(25);
    expect(contacts.every((x) => typeof x.call_id === 'string' && ['completed', 'no_answer', 'failed'].includes(x.status))).toBe(true);
    expect(contacts[0]).toMatchObject({ phone_number: '+919876543210', extra: { customer_id: '000147' } });
  });

  it('shows the finished counts, with the next step', async () => {
    const r = await h.run(['campaign', 'get', id]);
    expect(r.stdout).toMatch(/^status\s+completed$/m);
    expect(r.stdout).toMatch(/^\s+completed\s+\d+\s+\d+%$/m);
    expect(r.stderr).toContain(`voicectl call export --campaign ${id}`);
    const csv = await h.run(['campaign', 'get', id, '-o', 'csv']);
    const [head, row] = csv.stdout.trim().split('\n');
    expect(head).toBe('id,name,status,agent_id,contacts,pending,initiated,completed,no_answer,failed');
    expect(row).toMatch(new RegExp(`^${id},Leads end to end,completed,[0-9a-f-]+,25,0,0,\\d+,\\d+,\\d+$`));
  });

  it('lists the contacts with their call ids, filtered by status, as CSV', async () => {
    const all = JSON.parse((await h.run(['campaign', 'contacts', id, '--json'])).stdout) as Array<{ status: string; call_id: string; phone_number: string }>;
    const noAnswer = all.filter((c) => c.status === 'no_answer');
    const r = await h.run(['campaign', 'contacts', id, '--status', 'no_answer', '-o', 'csv']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('phone_number,name,status,call_id,extra');
    expect(lines).toHaveLength(noAnswer.length + 1);
    for (const c of noAnswer) expect(r.stdout).toContain(`${c.phone_number},`);
    expect(lines.slice(1).every((l) => l.includes(',no_answer,call_'))).toBe(true);
    const table = await h.run(['campaign', 'contacts', id]);
    expect(table.stdout).toMatch(/^NUMBER\s+NAME\s+STATUS\s+CALL ID\s+EXTRA/m);
    expect(table.stdout).toContain('Priya Sharma');
  });

  it('a completed campaign cannot be launched', async () => {
    const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('it has already run to completion');
  });
});

describe('campaign list and get', () => {
  it('lists campaigns, filtered by status, as a table, JSON and CSV', async () => {
    const draft = await h.run(['campaign', 'create', '--name', 'Still a draft', '--agent', 'Launcher', '--csv', 'fixtures/contacts/indian-formats.csv', '--default-country', 'IN', '--json']);
    const draftId = (JSON.parse(draft.stdout) as { id: string }).id;
    const table = await h.run(['campaign', 'list']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+STATUS\s+CONTACTS\s+PROGRESS\s+AGENT/m);
    expect(table.stdout).toMatch(new RegExp(`^${id}\\s+Leads end to end\\s+completed\\s+25\\s+25/25 finished`, 'm'));
    const json = JSON.parse((await h.run(['campaigns', 'list', '--status', 'draft', '--json'])).stdout) as Array<{ id: string; status: string }>;
    expect(json.map((c) => c.id)).toContain(draftId);
    expect(json.every((c) => c.status === 'draft')).toBe(true);
    const csv = await h.run(['campaign', 'list', '--all', '-o', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe('id,name,status,agent_id,contacts,pending,initiated,completed,no_answer,failed');
    expect(csv.stdout).toContain(`${draftId},Still a draft,draft,`);
    const limited = JSON.parse((await h.run(['campaign', 'list', '--limit', '1', '--json'])).stdout) as unknown[];
    expect(limited).toHaveLength(1);
  });

  it('an unknown id is exit 4 with words, not a stack', async () => {
    const r = await h.run(['campaign', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('no campaign with id 00000000-0000-4000-8000-000000000000');
  });
});

describe('create --launch', () => {
  it('under --no-input without --yes creates nothing', async () => {
    const before = h.sandbox.requests.filter((r) => r.method === 'POST').length;
    const r = await h.run(['campaign', 'create', '--name', 'Auto', '--agent', 'Launcher', '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--ignore-calling-hours']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(h.sandbox.requests.filter((r) => r.method === 'POST').length).toBe(before);
  });

  it('with --yes creates, launches and points at watch', async () => {
    const r = await h.run(['campaign', 'create', '--name', 'Auto', '--agent', 'Launcher', '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--ignore-calling-hours', '--yes', '--json']);
    expect(r.exitCode).toBe(0);
    const c = JSON.parse(r.stdout) as { id: string; status: string };
    expect(c.status).toBe('running');
    expect(r.stderr).toContain(`voicectl watch ${c.id}`);
    expect(launches().at(-1)!.path).toBe(`/campaigns/${c.id}/launch`);
  });
});
