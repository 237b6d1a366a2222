/**
 * Suppression lists on `campaign create`, end to end with the built binary: --exclude
 * files with numbers written differently from the contacts, the profile's do-not-call
 * file and --no-default-exclude, and --exclude-called-within from GET /calls?since=.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { ok, waitFor } from '../helpers/given.js';

let h: Harness;
const create = ['campaign', 'create', '--name', 'Week 2', '--agent', 'Excluder', '--csv', 'fixtures/leads.csv', '--default-country', 'IN'];

interface Plan {
  would_create: { contacts: Array<{ phone_number: string; name?: string }> };
  excluded: Array<{ row: number; phone_number: string; name?: string; rule: string; file?: string; file_row?: number; call_id?: string }>;
}

beforeAll(async () => {
  h = await harness();
  const a = await h.run(['agent', 'create', '--name', 'Excluder', '--voice', 'Ananya', '--greeting', 'Hello!', '--call-purpose', 'Leads', '--prompt', 'Qualify.', '--json']);
  expect(a.exitCode).toBe(0);
});
afterAll(async () => h.close());

const list = (name: string, text: string) => {
  const p = join(h.configDir, name);
  writeFileSync(p, text);
  return p;
};

describe('campaign create --exclude', () => {
  it('numbers written in other formats remove exactly those contacts, with the row in each file', async () => {
    // leads.csv rows 2, 3 and 22 are 098765 43210, +91-99887-76655 and +44 20 7946 0958.
    const txt = list('dnc.txt', '+91 98765 43210\n\n919988776655\n');
    const csv = list('dnc.csv', 'Who,Mobile\nJames,0044 20 7946 0958\n');
    const r = await h.run([...create, '--exclude', txt, csv, '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.excluded).toEqual([
      { row: 2, phone_number: '+919876543210', name: 'Priya Sharma', rule: 'dnc.txt', file: txt, file_row: 1 },
      { row: 3, phone_number: '+919988776655', name: 'Rahul Verma', rule: 'dnc.txt', file: txt, file_row: 3 },
      { row: 22, phone_number: '+442079460958', name: 'James Wilson', rule: 'dnc.csv', file: csv, file_row: 2 },
    ]);
    expect(plan.would_create.contacts).toHaveLength(22);
    expect(r.stderr).toContain('Excluded 3 contacts: 2 by dnc.txt, 1 by dnc.csv.');
    expect(h.sandbox.requests.filter((q) => q.method === 'POST')).toHaveLength(1); // the agent only
  });

  it('what is created leaves them out', async () => {
    const txt = list('dnc2.txt', '098765 43210\n');
    const r = await h.run([...create, '--exclude', txt, '--json']);
    expect(r.exitCode).toBe(0);
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    const numbers = (await ok<Array<{ phone_number: string }>>(h.api, 'GET', `/campaigns/${id}/contacts`)).map((c) => c.phone_number);
    expect(numbers).toHaveLength(24);
    expect(numbers).not.toContain('+919876543210');
  });

  it('the profile\'s do_not_call_file applies to every campaign unless --no-default-exclude', async () => {
    const dnc = list('org-dnc.txt', '+91 94220 12345\n');
    expect((await h.run(['config', 'set', 'do_not_call_file', dnc])).exitCode).toBe(0);
    try {
      const r = await h.run([...create, '--dry-run', '--json']);
      expect(r.exitCode).toBe(0);
      const plan = JSON.parse(r.stdout) as Plan;
      expect(plan.excluded).toMatchObject([{ row: 4, phone_number: '+919422012345', rule: 'org-dnc.txt (the profile\'s do_not_call_file)', file_row: 1 }]);
      const off = await h.run([...create, '--no-default-exclude', '--dry-run', '--json']);
      expect((JSON.parse(off.stdout) as { contacts: unknown[] }).contacts).toHaveLength(25);
    } finally {
      await h.run(['config', 'unset', 'do_not_call_file']);
    }
  });

  it('--exclude-called-within leaves out numbers with a recent call', async () => {
    const first = await h.run(['campaign', 'create', '--name', 'Small', '--agent', 'Excluder', '--csv', list('two.csv', 'name,phone\nA,+919876543210\nB,+919988776655\n'), '--launch', '--yes', '--ignore-calling-hours', '--json']);
    expect(first.exitCode).toBe(0);
    const id = (JSON.parse(first.stdout) as { id: string }).id;
    await waitFor(async () => ((await ok<{ total: number }>(h.api, 'GET', `/calls?campaign_id=${id}`)).total === 2 ? true : undefined));
    const r = await h.run([...create, '--exclude-called-within', '7d', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.excluded.map((e) => [e.row, e.phone_number, e.rule])).toEqual([
      [2, '+919876543210', 'called within 7d'],
      [3, '+919988776655', 'called within 7d'],
    ]);
    expect(plan.excluded.every((e) => typeof e.call_id === 'string')).toBe(true);
    expect(h.sandbox.requests.some((q) => q.method === 'GET' && q.path === '/calls' && typeof q.query.since === 'string')).toBe(true);
  });

  it('bad input is exit 2 before any request: a missing file, a bad span, national numbers without a country', async () => {
    const before = h.sandbox.requests.length;
    const missing = await h.run([...create, '--exclude', join(h.configDir, 'nope.csv'), '--dry-run']);
    expect(missing.exitCode).toBe(2);
    const span = await h.run([...create, '--exclude-called-within', 'a week', '--dry-run']);
    expect(span.exitCode).toBe(2);
    expect(span.stderr).toContain('expected a span such as 7d');
    const national = await h.run(['campaign', 'create', '--name', 'X', '--agent', 'Excluder', '--csv', list('intl.csv', 'phone\n+919876543210\n'), '--exclude', list('nat.txt', '98765 43210\n'), '--dry-run']);
    expect(national.exitCode).toBe(2);
    expect(national.stderr).toContain('has no country code');
    expect(h.sandbox.requests.length).toBe(before);
  });
});
