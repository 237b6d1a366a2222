import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { clientFor, givenAgent } from '../helpers/given.js';

let h: Harness;
let agentId = '';
const PHONE_REASONS = 'fixtures/contacts/phone-reasons.csv';

beforeAll(async () => {
  h = await harness();
  agentId = (await givenAgent(clientFor(h.sandbox), { name: 'Sales desk', greeting: 'Hello!', call_purpose: 'Leads', prompt: 'Qualify the lead.', tools: [] })).id;
});
afterAll(async () => h.close());

const posts = () => h.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/campaigns'));

describe('campaign create: validation before anything is sent', () => {
  it('an invalid row sends nothing and names every bad row as a spreadsheet numbers it', async () => {
    const before = posts().length;
    const r = await h.run(['campaign', 'create', '--name', 'Messy', '--agent', 'Sales desk', '--csv', PHONE_REASONS, '--default-country', 'IN']);
    expect(r.exitCode).toBe(2);
    expect(posts().length).toBe(before);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('phone-reasons.csv: 13 rows, 1 valid, 12 invalid');
    const rows = [...r.stderr.matchAll(/^(\d+)\s{2,}phone\s/gm)].map((m) => Number(m[1]));
    expect(rows).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(r.stderr).toMatch(/^7\s+phone\s+9\.19876E\+11\s+Excel turned this number into scientific notation/m);
    expect(r.stderr).toContain('12 rows of phone-reasons.csv are invalid, so nothing was sent.');
    expect(r.stderr).toContain('--skip-invalid');
  });

  it('agrees with `contacts validate` row for row', async () => {
    const v = await h.run(['contacts', 'validate', PHONE_REASONS, '--default-country', 'IN', '--json']);
    const c = await h.run(['campaign', 'create', '--name', 'Messy', '--agent', agentId, '--csv', PHONE_REASONS, '--default-country', 'IN', '--json']);
    expect(c.exitCode).toBe(2);
    const fromCreate = JSON.parse(c.stdout) as { errors: Array<{ row: number; message: string }> };
    const fromValidate = JSON.parse(v.stdout) as { errors: Array<{ row: number; message: string }> };
    expect(fromCreate.errors.map((e) => [e.row, e.message])).toEqual(fromValidate.errors.map((e) => [e.row, e.message]));
  });

  it('a file-level problem is exit 2 with one message and no request', async () => {
    const before = h.sandbox.requests.length;
    for (const [file, text] of [
      ['fixtures/contacts/no-phone-column.csv', 'no phone column'],
      ['fixtures/contacts/empty.csv', 'empty'],
      ['fixtures/contacts/nope.csv', 'File not found'],
    ] as const) {
      const r = await h.run(['campaign', 'create', '--name', 'X', '--agent', agentId, '--csv', file]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(text);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('needs --csv or --contacts, and --split-from only with --split', async () => {
    const none = await h.run(['campaign', 'create', '--name', 'X', '--agent', agentId]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('--csv FILE');
    const from = await h.run(['campaign', 'create', '--name', 'X', '--agent', agentId, '--csv', 'fixtures/leads.csv', '--split-from', '2']);
    expect(from.exitCode).toBe(2);
    expect(from.stderr).toContain('--split-from goes with --split');
  });

  it('--skip-invalid creates with the valid rows and lists each skipped row with its reason', async () => {
    const before = posts().length;
    const r = await h.run(['campaign', 'create', '--name', 'Skipping', '--agent', 'Sales desk', '--csv', PHONE_REASONS, '--default-country', 'IN', '--skip-invalid', '--json']);
    expect(r.exitCode).toBe(0);
    const sent = posts().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ name: 'Skipping', agent_id: agentId, contacts: [{ phone_number: '+919876543210', name: 'Valid One', extra: { note: 'this row is fine' } }] });
    expect(r.stderr).toContain('skipping 12 invalid rows');
    expect(r.stderr).toContain('row 2: phone number is empty');
    expect(r.stderr).toContain('row 7 ("9.19876E+11"): Excel turned this number');
    expect(r.stderr).toContain('row 13: phone number is empty');
    const created = JSON.parse(r.stdout) as { id: string; status: string };
    expect(created.status).toBe('draft');
    expect(r.stderr).toContain(`voicectl campaign launch ${created.id}`);
  });

  it('prints the id, status draft and the next command on a plain run', async () => {
    const r = await h.run(['campaign', 'create', '--name', 'Indian formats', '--agent', 'Sales desk', '--csv', 'fixtures/contacts/indian-formats.csv', '--default-country', 'IN', '--campaign-prompt', 'Mention the Diwali offer.']);
    expect(r.exitCode).toBe(0);
    const id = /^id\s+(\S+)$/m.exec(r.stdout)?.[1];
    expect(id).toBeTruthy();
    expect(r.stdout).toMatch(/^status\s+draft$/m);
    expect(r.stdout).toMatch(/^contacts\s+12$/m);
    expect(r.stderr).toContain(`Next: voicectl campaign launch ${id}`);
    const body = posts().at(-1)!.body as { campaign_prompt: string; contacts: Array<{ phone_number: string }> };
    expect(body.campaign_prompt).toBe('Mention the Diwali offer.');
    expect(body.contacts[0]!.phone_number).toBe('+919876543210');
  });

  it('drops duplicates and says which rows they repeat; --keep-duplicates keeps them', async () => {
    const dropped = await h.run(['campaign', 'create', '--name', 'Dups', '--agent', agentId, '--csv', 'fixtures/contacts/duplicates.csv', '--default-country', 'IN', '--skip-invalid', '--dry-run', '--json']);
    expect(dropped.exitCode).toBe(0);
    expect((JSON.parse(dropped.stdout) as { contacts: unknown[] }).contacts).toHaveLength(3);
    expect(dropped.stderr).toContain('row 3 repeats row 2');
    const kept = await h.run(['campaign', 'create', '--name', 'Dups', '--agent', agentId, '--csv', 'fixtures/contacts/duplicates.csv', '--default-country', 'IN', '--skip-invalid', '--keep-duplicates', '--dry-run', '--json']);
    expect((JSON.parse(kept.stdout) as { contacts: unknown[] }).contacts).toHaveLength(6);
  });
});

describe('campaign create --dry-run', () => {
  it('prints the body that would be sent and sends nothing', async () => {
    const before = h.sandbox.requests.length;
    const r = await h.run(['campaign', 'create', '--name', 'Preview', '--agent', agentId, '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--kb', 'kb-1,kb-2', '--dry-run']);
    expect(r.exitCode).toBe(0);
    // An agent given by id needs no lookup: a dry run makes no request at all.
    expect(h.sandbox.requests.length).toBe(before);
    const body = JSON.parse(r.stdout) as { name: string; agent_id: string; kb_item_ids: string[]; contacts: Array<{ phone_number: string; name: string; extra: Record<string, string> }> };
    expect(body).toMatchObject({ name: 'Preview', agent_id: agentId, kb_item_ids: ['kb-1', 'kb-2'] });
    expect(body.contacts).toHaveLength(25);
    expect(body.contacts[0]).toEqual({ phone_number: '+919876543210', name: 'Priya Sharma', extra: { city: 'Bengaluru', plan: 'Gold', customer_id: '000147', language: 'Kannada' } });
    expect(r.stderr).toContain('Dry run: nothing was sent.');
  });

  it('looks an agent name up with a read, and still posts nothing', async () => {
    const before = posts().length;
    const r = await h.run(['campaign', 'create', '--name', 'Preview', '--agent', 'Sales desk', '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--dry-run', '-o', 'jsonl']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ agent_id: agentId });
    expect(posts().length).toBe(before);
  });
});

describe('campaign create --contacts FILE.json', () => {
  it('validates items like rows and calls them "item N"', async () => {
    const file = join(h.configDir, 'contacts.json');
    writeFileSync(file, JSON.stringify([
      { phone_number: '+91 98765 43210', name: 'Asha', extra: { tier: 1 } },
      { phone_number: '12345', name: 'Short' },
      { name: 'No number' },
      { phone_number: '09988776655' },
    ]));
    const before = posts().length;
    const bad = await h.run(['campaign', 'create', '--name', 'J', '--agent', agentId, '--contacts', file, '--default-country', 'IN']);
    expect(bad.exitCode).toBe(2);
    expect(posts().length).toBe(before);
    expect(bad.stderr).toMatch(/^ITEM\s+COLUMN/m);
    expect(bad.stderr).toMatch(/^2\s+phone_number\s+12345\s+too short/m);
    expect(bad.stderr).toMatch(/^3\s+phone_number\s+has no phone_number/m);
    const ok = await h.run(['campaign', 'create', '--name', 'J', '--agent', agentId, '--contacts', file, '--default-country', 'IN', '--skip-invalid', '--json']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr).toContain('item 2 ("12345"): too short');
    expect(posts().at(-1)!.body).toMatchObject({ contacts: [{ phone_number: '+919876543210', name: 'Asha', extra: { tier: 1 } }, { phone_number: '+919988776655' }] });
  });

  it('a file that is not a JSON array is exit 2', async () => {
    const file = join(h.configDir, 'object.json');
    writeFileSync(file, '{"phone_number": "+919876543210"}');
    const r = await h.run(['campaign', 'create', '--name', 'J', '--agent', agentId, '--contacts', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('does not hold an array of contacts');
  });
});

describe('campaign create: more than 10,000 contacts', () => {
  let big = '';
  beforeAll(() => {
    big = join(h.configDir, 'big.csv');
    const lines = ['name,phone'];
    for (let i = 0; i < 10_001; i++) lines.push(`Lead ${i},+91 98${String(i).padStart(8, '0')}`);
    writeFileSync(big, `${lines.join('\n')}\n`);
  });

  it('is an error that points at --split, before any request', async () => {
    const before = h.sandbox.requests.length;
    const r = await h.run(['campaign', 'create', '--name', 'Big', '--agent', agentId, '--csv', big]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('10,001 valid contacts');
    expect(r.stderr).toContain('--split');
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('--split creates the parts one after another, named NAME (1/2) and NAME (2/2)', async () => {
    const before = posts().length;
    const r = await h.run(['campaign', 'create', '--name', 'Big', '--agent', agentId, '--csv', big, '--split', '--json']);
    expect(r.exitCode).toBe(0);
    const sent = posts().slice(before).map((p) => p.body as { name: string; contacts: Array<{ phone_number: string }> });
    expect(sent.map((b) => b.name)).toEqual(['Big (1/2)', 'Big (2/2)']);
    expect(sent.map((b) => b.contacts.length)).toEqual([5001, 5000]);
    expect(sent[1]!.contacts[0]!.phone_number).toBe('+919800005001');
    const created = JSON.parse(r.stdout) as Array<{ id: string; name: string }>;
    expect(created.map((c) => c.name)).toEqual(['Big (1/2)', 'Big (2/2)']);
  });
});
