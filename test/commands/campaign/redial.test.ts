/**
 * `campaign redial` end to end: the built binary against the sandbox. A campaign runs to
 * completion; its unanswered contacts become a new draft with their names and extras,
 * and a contact whose call ended do_not_call is never in a redial, whatever the statuses.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../../helpers/cli.js';
import { allCalls, campaignDone, ok } from '../../helpers/given.js';

let h: Harness;
let source = '';
let csv = '';
const ROWS = 200;

interface Contact { phone_number: string; name?: string; extra?: Record<string, unknown>; status?: string; call_id?: string }

beforeAll(async () => {
  h = await harness({ seed: 11 });
  const a = await h.run(['agent', 'create', '--name', 'Redialer', '--voice', 'Ananya', '--greeting', 'Hello!', '--call-purpose', 'Leads', '--prompt', 'Qualify.', '--json']);
  expect(a.exitCode).toBe(0);
  // 200 Indian mobiles with a name and two extra columns.
  const lines = ['name,phone,city,customer_id'];
  for (let i = 0; i < ROWS; i++) lines.push(`Person ${i},98765 ${String(i).padStart(5, '0')},City ${i % 7},C${1000 + i}`);
  csv = join(h.configDir, 'leads.csv');
  writeFileSync(csv, `${lines.join('\n')}\n`);
  const c = await h.run(['campaign', 'create', '--name', 'Spring', '--agent', 'Redialer', '--csv', csv, '--default-country', 'IN', '--launch', '--yes', '--ignore-calling-hours', '--json']);
  expect(c.exitCode).toBe(0);
  source = (JSON.parse(c.stdout) as { id: string }).id;
  await campaignDone(h.api, source);
}, 120_000);
afterAll(async () => h.close());

describe('campaign redial', () => {
  it('turns the no-answers and failures into a draft with their names and extras', async () => {
    const original = await ok<Contact[]>(h.api, 'GET', `/campaigns/${source}/contacts`);
    const expected = original.filter((c) => c.status === 'no_answer' || c.status === 'failed');
    expect(expected.length).toBeGreaterThan(10);

    const r = await h.run(['campaign', 'redial', source, '--json']);
    expect(r.exitCode).toBe(0);
    const created = JSON.parse(r.stdout) as { id: string; name: string; status: string };
    expect(created).toMatchObject({ name: 'Spring (redial)', status: 'draft' });
    const counts = expected.reduce<Record<string, number>>((m, c) => ({ ...m, [c.status!]: (m[c.status!] ?? 0) + 1 }), {});
    expect(r.stderr).toContain(`Redial: ${expected.length} contacts (`);
    for (const [status, n] of Object.entries(counts)) expect(r.stderr).toContain(`${n} ${status}`);
    expect(r.stderr).toMatch(/Left out: \d+ status completed/);

    const redial = await ok<Contact[]>(h.api, 'GET', `/campaigns/${created.id}/contacts`);
    expect(redial.map((c) => [c.phone_number, c.name, c.extra])).toEqual(expected.map((c) => [c.phone_number, c.name, c.extra]));
    // The extras are the spreadsheet's columns, carried over.
    expect(redial[0]!.extra).toMatchObject({ city: expect.stringMatching(/^City \d$/), customer_id: expect.stringMatching(/^C\d+$/) });
    expect(redial.every((c) => c.status === 'pending')).toBe(true);
    const agent = (await ok<{ agent_id: string }>(h.api, 'GET', `/campaigns/${source}`)).agent_id;
    expect((await ok<{ agent_id: string }>(h.api, 'GET', `/campaigns/${created.id}`)).agent_id).toBe(agent);
  });

  it('never includes a contact whose call ended do_not_call, even when every status is asked for', async () => {
    const dnc = (await allCalls(h.api, `campaign_id=${source}`)).filter((c) => c.outcome === 'do_not_call').map((c) => c.phone_number);
    // The seed makes the sandbox produce some: without them this test would prove nothing.
    expect(dnc.length).toBeGreaterThan(0);

    const r = await h.run(['campaign', 'redial', source, '--status', 'completed,no_answer,failed', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      would_create: Array<{ contacts: Contact[] }>; left_out: Record<string, number>; refused_outcome: Array<{ phone_number: string; outcome: string }>;
    };
    const numbers = plan.would_create[0]!.contacts.map((c) => c.phone_number);
    expect(numbers).toHaveLength(ROWS - dnc.length);
    for (const n of dnc) expect(numbers).not.toContain(n);
    expect(plan.left_out).toEqual({ 'outcome do_not_call': dnc.length });
    expect(plan.refused_outcome.map((c) => c.phone_number).sort()).toEqual([...dnc].sort());
    expect(r.stderr).toContain(`Left out: ${dnc.length} outcome do_not_call.`);
  });

  it('--outcome selects by the call\'s outcome; --exclude-outcome adds outcomes never called again', async () => {
    const all = await allCalls(h.api, `campaign_id=${source}`);
    const interested = all.filter((c) => c.outcome === 'requirements_gathered').map((c) => c.phone_number).sort();
    const r = await h.run(['campaign', 'redial', source, '--outcome', 'requirements_gathered', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout) as { would_create: Array<{ contacts: Contact[] }> };
    expect(plan.would_create[0]!.contacts.map((c) => c.phone_number).sort()).toEqual(interested);

    const notInterested = new Set(all.filter((c) => c.outcome === 'not_interested' || c.outcome === 'do_not_call').map((c) => c.phone_number));
    const r2 = await h.run(['campaign', 'redial', source, '--status', 'completed', '--exclude-outcome', 'do_not_call,not_interested', '--dry-run', '--json']);
    const plan2 = JSON.parse(r2.stdout) as { would_create: Array<{ contacts: Contact[] }> };
    for (const c of plan2.would_create[0]!.contacts) expect(notInterested.has(c.phone_number)).toBe(false);
  });

  it('--exclude with numbers written in other formats removes exactly those contacts, with both rows', async () => {
    const original = await ok<Contact[]>(h.api, 'GET', `/campaigns/${source}/contacts`);
    const targets = original.filter((c) => c.status === 'no_answer' || c.status === 'failed').slice(0, 3);
    // +919876500012 written three ways: national with 0, spaced with +, bare with country code.
    const digits = targets.map((c) => c.phone_number.slice(3));
    const list = join(h.configDir, 'dnc.txt');
    writeFileSync(list, `0${digits[0]!.slice(0, 5)} ${digits[0]!.slice(5)}\n+91 ${digits[1]!.slice(0, 5)}-${digits[1]!.slice(5)}\n91${digits[2]}\n`);
    const r = await h.run(['campaign', 'redial', source, '--exclude', list, '--default-country', 'IN', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout) as { would_create: Array<{ contacts: Contact[] }>; excluded: Array<{ phone_number: string; file_row: number; rule: string }> };
    expect(plan.excluded.map((e) => [e.phone_number, e.file_row, e.rule])).toEqual(targets.map((c, i) => [c.phone_number, i + 1, 'dnc.txt']));
    const numbers = plan.would_create[0]!.contacts.map((c) => c.phone_number);
    for (const t of targets) expect(numbers).not.toContain(t.phone_number);
    expect(r.stderr).toContain('Excluded 3 contacts: 3 by dnc.txt.');
  });

  it('a campaign that does not exist is exit 4', async () => {
    const r = await h.run(['campaign', 'redial', '00000000-0000-4000-8000-000000000000']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('no campaign with id');
  });

  it('--launch outside calling hours is refused before anything is created (unless ignored)', async () => {
    const before = h.sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/campaigns/json').length;
    // An hour-long window that starts two hours from now in India (or ended hours ago): never the present.
    const ist = Math.floor((Date.now() / 60_000 + 330) % 1440);
    const s = (ist + 120) % 1380;
    const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const window = `${hhmm(s)}-${hhmm(s + 60)}`;
    const r = await h.run(['campaign', 'redial', source, '--launch', '--yes', '--calling-hours', window]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`outside calling hours (${window} local time), so nothing was created or launched`);
    expect(h.sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/campaigns/json').length).toBe(before);
  });
});
