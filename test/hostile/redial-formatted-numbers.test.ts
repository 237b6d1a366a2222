/**
 * A service that returns campaign contacts and calls with numbers as they were uploaded
 * ("+91 98000 00004", "09800000005"), not in E.164 as the spec says. `campaign redial`
 * compares every number with every do-not-call rule after normalizing it with the default
 * country, and leaves out (and lists) a number it cannot read.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostile, sendJson, type Hostile } from './client-harness.js';

const CAMPAIGN = '7a1c0c55-0000-4000-8000-00000000c0de';
const AGENT = '11111111-2222-4333-8444-555555555555';

/** The campaign's contacts, in the service's formatting. */
const CONTACTS = [
  { phone_number: '+91 98000 00001', name: 'Asha', status: 'no_answer', extra: { id: 1 } },
  { phone_number: '+91 98000 00002', name: 'Bala', status: 'no_answer' },
  { phone_number: '098000 00003', name: 'Chitra', status: 'failed' },
  // Its own call went unanswered; a later call to the same number (written otherwise) ended do_not_call.
  { phone_number: '+91 98000 00004', name: 'Dev', status: 'no_answer', call_id: 'c4' },
  // The same person twice: once answered and asked not to be called, once unanswered.
  { phone_number: '+919800000005', name: 'Esha', status: 'completed', call_id: 'c5' },
  { phone_number: '09800000005', name: 'Esha again', status: 'no_answer' },
  { phone_number: '+91 98000 00006', name: 'Farid', status: 'no_answer' },
  { phone_number: '12345', name: 'Garbled', status: 'no_answer' },
  // A repeat of the first contact, written nationally.
  { phone_number: '098000 00001', name: 'Asha (repeat)', status: 'failed' },
  // Uploaded from a list with a Country column: read with its own country, as campaign create read it.
  { phone_number: '(646) 555-0143', name: 'Hank', status: 'no_answer', extra: { Country: 'United States' } },
];

const CAMPAIGN_CALLS = [
  { call_id: 'c4', campaign_id: CAMPAIGN, phone_number: '+91 98000 00004', status: 'completed', outcome: 'no_answer', start_time: '2026-11-20T10:00:00Z' },
  { call_id: 'c4b', campaign_id: CAMPAIGN, phone_number: '9800000004', status: 'completed', outcome: 'do_not_call', start_time: '2026-11-20T11:00:00Z' },
  { call_id: 'c5', campaign_id: CAMPAIGN, phone_number: '+919800000005', status: 'completed', outcome: 'do_not_call', start_time: '2026-11-20T10:05:00Z' },
];

/** Calls of other campaigns within the last week (for --exclude-called-within). */
const RECENT_CALLS = [
  { call_id: 'x6', campaign_id: 'another', phone_number: '098000 00006', status: 'completed', outcome: 'ok', start_time: '2026-11-25T10:00:00Z' },
];

let h: Hostile;
let dnc = '';
let profileDnc = '';
const posted: unknown[] = [];

beforeAll(async () => {
  h = await hostile((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === `/campaigns/${CAMPAIGN}`) {
      return sendJson(res, 200, { id: CAMPAIGN, name: 'Spring', agent_id: AGENT, status: 'completed' });
    }
    if (req.method === 'GET' && url.pathname === `/campaigns/${CAMPAIGN}/contacts`) return sendJson(res, 200, CONTACTS);
    if (req.method === 'GET' && url.pathname === '/calls') {
      const calls = url.searchParams.get('campaign_id') === CAMPAIGN ? CAMPAIGN_CALLS : url.searchParams.has('since') ? [...CAMPAIGN_CALLS, ...RECENT_CALLS] : [];
      const offset = Number(url.searchParams.get('offset') ?? 0);
      return sendJson(res, 200, { calls: calls.slice(offset), total: calls.length, limit: 200, offset });
    }
    if (req.method === 'POST' && url.pathname === '/campaigns/json') {
      let raw = '';
      req.on('data', (c: Buffer) => { raw += c.toString(); });
      req.on('end', () => {
        posted.push(JSON.parse(raw));
        sendJson(res, 201, { id: 'new-campaign', name: 'Spring (redial)', status: 'draft' });
      });
      return;
    }
    sendJson(res, 404, { error: 'Not found', status_code: 404 });
  });
  dnc = join(h.config.dir, 'dnc.txt');
  writeFileSync(dnc, '+919800000002\n');
  profileDnc = join(h.config.dir, 'do-not-call.csv');
  writeFileSync(profileDnc, 'name,phone\nChitra,+91 98000-00003\n');
});
afterAll(async () => h.close());

interface Plan {
  would_create: Array<{ contacts: Array<{ phone_number: string; name?: string }> }>;
  left_out: Record<string, number>;
  refused_outcome: Array<{ phone_number: string; name?: string }>;
  excluded: Array<{ phone_number: string; rule: string; file_row?: number; call_id?: string }>;
  unreadable: Array<{ row: number; phone_number: unknown; reason: string }>;
}

async function dryRun(...flags: string[]): Promise<{ plan: Plan; stderr: string }> {
  const r = await h.run(['campaign', 'redial', CAMPAIGN, '--status', 'no_answer,failed', '--dry-run', '--json', ...flags]);
  expect(r.stderr).not.toContain('unexpected error');
  expect(r.exitCode).toBe(0);
  return { plan: JSON.parse(r.stdout) as Plan, stderr: r.stderr };
}

function sent(plan: Plan): string[] {
  return plan.would_create.flatMap((p) => p.contacts.map((c) => c.phone_number));
}

describe('campaign redial against a service that returns formatted numbers', () => {
  it('--exclude catches "+91 98000 00002" listed as +919800000002', async () => {
    const { plan } = await dryRun('--default-country', 'IN', '--exclude', dnc);
    expect(plan.excluded).toContainEqual(expect.objectContaining({ phone_number: '+919800000002', rule: 'dnc.txt', file_row: 1 }));
    expect(sent(plan)).not.toContain('+919800000002');
  });

  it('the profile\'s do_not_call_file catches "098000 00003" listed as "+91 98000-00003"', async () => {
    const set = await h.run(['config', 'set', 'do_not_call_file', profileDnc]);
    expect(set.exitCode).toBe(0);
    try {
      const { plan } = await dryRun('--default-country', 'IN');
      expect(plan.excluded).toContainEqual(expect.objectContaining({ phone_number: '+919800000003', rule: "do-not-call.csv (the profile's do_not_call_file)", file_row: 2 }));
      expect(sent(plan)).not.toContain('+919800000003');
    } finally {
      expect((await h.run(['config', 'unset', 'do_not_call_file'])).exitCode).toBe(0);
    }
  });

  it('a call that ended do_not_call keeps its number out, however either side writes it', async () => {
    const { plan, stderr } = await dryRun('--default-country', 'IN');
    // "+91 98000 00004" (contact) against "9800000004" (a later call); "09800000005" against "+919800000005".
    expect(plan.refused_outcome.map((c) => [c.name, c.phone_number])).toEqual([
      ['Dev', '+919800000004'], ['Esha', '+919800000005'], ['Esha again', '+919800000005'],
    ]);
    expect(plan.left_out['outcome do_not_call']).toBe(2);
    expect(plan.left_out['outcome of another call to the number']).toBe(1);
    expect(sent(plan)).not.toContain('+919800000004');
    expect(sent(plan)).not.toContain('+919800000005');
    expect(stderr).toContain('Left out:');
  });

  it('--exclude-called-within catches "+91 98000 00006" called as "098000 00006"', async () => {
    const { plan } = await dryRun('--default-country', 'IN', '--exclude-called-within', '7d');
    expect(plan.excluded).toContainEqual(expect.objectContaining({ phone_number: '+919800000006', rule: 'called within 7d', call_id: 'x6' }));
    expect(sent(plan)).not.toContain('+919800000006');
  });

  it('sends only E.164, counts a repeat written otherwise once, and lists the number it cannot read', async () => {
    const { plan, stderr } = await dryRun('--default-country', 'IN', '--exclude', dnc, '--exclude-called-within', '7d');
    expect(sent(plan)).toEqual(['+919800000001', '+919800000003', '+16465550143']);
    expect(plan.would_create[0]!.contacts[0]).toMatchObject({ name: 'Asha' });
    expect(plan.left_out['repeated number']).toBe(1);
    expect(plan.unreadable).toEqual([{ row: 8, phone_number: '12345', name: 'Garbled', reason: expect.stringMatching(/short/) }]);
    expect(stderr).toMatch(/warning: 1 contact of the campaign has a number that voicectl cannot read as a phone number \(default country IN\), so it is left out of the redial/);
    expect(stderr).toContain('contact 8 (Garbled): "12345"');
  });

  it('without a default country, national numbers are left out and listed, never sent', async () => {
    const { plan, stderr } = await dryRun();
    const rows = plan.unreadable.map((u) => u.row);
    // "098000 00003", "09800000005", "12345" and "098000 00001" cannot be read without a country.
    expect(rows).toEqual([3, 6, 8, 9]);
    for (const n of sent(plan)) expect(n).toMatch(/^\+[1-9]\d+$/);
    expect(sent(plan)).toContain('+16465550143');
    expect(stderr).toContain('Pass --default-country (for example --default-country IN)');
  });

  it('creates the campaign with the normalized numbers', async () => {
    const r = await h.run(['campaign', 'redial', CAMPAIGN, '--default-country', 'IN', '--exclude', dnc, '--json']);
    expect(r.exitCode).toBe(0);
    expect(posted).toHaveLength(1);
    const body = posted[0] as { contacts: Array<{ phone_number: string }> };
    expect(body.contacts.map((c) => c.phone_number)).toEqual(['+919800000001', '+919800000003', '+919800000006', '+16465550143']);
  });
});
