/** `campaign create -o csv` prints the rows the table shows: the contacts column included. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { clientFor, givenAgent, ok, waitFor } from '../../helpers/given.js';
import { run } from '../../helpers/run.js';
import { sharedDir, tempDir, writeIn } from '../../helpers/temp.js';
import { baseEnv, BIN, harness, type Harness, runCli } from '../../helpers/cli.js';
import { AGENT_ID, agentRoute, fakeServerPerTest } from './fake-server.js';
import { execa } from 'execa';

describe('-o csv', () => {
  let sandbox: Sandbox;
  let agentId = '';
  const dir = tempDir('voicectl-create-csv-');
  const file = join(dir.dir, 'leads.csv');

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 5 });
    agentId = (await givenAgent(clientFor(sandbox))).id;
    writeFileSync(file, 'phone,name\n+919876543210,Asha\n+919988776655,Ravi\n+442079460958,Jo\n');
  });
  afterAll(async () => {
    await sandbox.close();
    dir.remove();
  });

  const env = () => ({ VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey });

  describe('campaign create -o csv', () => {
    it('carries the contacts column, as the table does', async () => {
      const csv = await run(['campaign', 'create', '--name', 'Leads', '--agent', agentId, '--csv', file, '-o', 'csv'], { env: env() });
      expect(csv.exitCode).toBe(0);
      const [header, row, ...rest] = csv.stdout.trimEnd().split('\n');
      expect(header).toBe('id,name,status,contacts');
      expect(rest).toEqual([]);
      expect(row).toMatch(/^[^,]+,Leads,draft,3$/);

      const table = await run(['campaign', 'create', '--name', 'Leads', '--agent', agentId, '--csv', file], { env: env() });
      expect(table.exitCode).toBe(0);
      expect(table.stdout).toMatch(/^contacts\s+3$/m);
    });
  });
});

describe('the built binary against the sandbox', () => {
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
});

describe('exclusions', () => {
  /**
   * Suppression lists on `campaign create`, end to end with the built binary: --exclude
   * files with numbers written differently from the contacts, the profile's do-not-call
   * file and --no-default-exclude, and --exclude-called-within from GET /calls?since=.
   */
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

  const list = (name: string, text: string) => writeIn(h.configDir, name, text);

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
});

describe('against servers that answer otherwise', () => {
  /**
   * Answers the sandbox never gives but another server may: a row rejected by the service
   * itself, a failure part-way through a split, no campaign listing, a 409 on launch, an
   * empty launch response. Each against a small node:http fake.
   */
  const files = sharedDir('voicectl-campaign-fake-');
  const fake = fakeServerPerTest();

  function run(args: string[]) {
    return runCli(args, { ...baseEnv(files.dir), VOICECTL_BASE_URL: fake.server.url, VOICECTL_API_KEY: 'sk_fake' });
  }

  const CAMPAIGN = { id: 'c0ffee00-0000-4000-8000-000000000001', name: 'Fake', status: 'draft', contacts_by_status: { pending: 3 } };

  describe('the service rejects a row that passed local checks', () => {
    it('shows the service\'s message with the spreadsheet row of contacts[3]', async () => {
      // Row 4 is blank and row 5 invalid (skipped), so contacts[3] is row 7, not row 5.
      const file = join(files.dir, 'rows.csv');
      writeFileSync(file, 'name,phone\nA,+919876543210\nB,+919988776655\n\nC,12345\nD,+442079460958\nE,+14155552671\n');
      const server = await fake.start({
        ...agentRoute,
        'POST /campaigns/json': () => ({ status: 422, body: { error: 'contacts[3].phone_number: this number is on the national do-not-call registry', status_code: 422 } }),
      });
      const r = await run(['campaign', 'create', '--name', 'X', '--agent', AGENT_ID, '--csv', file, '--skip-invalid']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('The service rejected row 7 of rows.csv (+14155552671, E), sent as contacts[3]: contacts[3].phone_number: this number is on the national do-not-call registry (HTTP 422).');
      expect(server.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    });

    it('a rejection that names no row keeps the service\'s own error', async () => {
      const server = await fake.start({
        ...agentRoute,
        'POST /campaigns/json': () => ({ status: 400, body: { error: 'campaign name already taken', status_code: 400 } }),
      });
      const r = await run(['campaign', 'create', '--name', 'X', '--agent', AGENT_ID, '--csv', 'fixtures/leads.csv', '--default-country', 'IN']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('campaign name already taken');
    });
  });

  describe('--split stopping part-way', () => {
    it('lists what was created and prints the exact command that creates only the rest', async () => {
      const file = join(files.dir, 'big.csv');
      const lines = ['name,phone'];
      for (let i = 0; i < 20_001; i++) lines.push(`Lead ${i},+91 97${String(i).padStart(8, '0')}`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      let fail = true;
      const server = await fake.start({
        ...agentRoute,
        'POST /campaigns/json': (req) => {
          const name = (req.body as { name: string }).name;
          if (name.includes('(2/3)') && fail) return { status: 503, body: { error: 'service unavailable', status_code: 503 } };
          return { status: 201, body: { id: `id-${/\((\d)\/3\)/.exec(name)![1]}`, name, status: 'draft' } };
        },
      });
      const r = await run(['campaign', 'create', '--name', 'Diwali offer', '--agent', AGENT_ID, '--csv', file, '--split', '--json']);
      expect(r.exitCode).toBe(1);
      const posted = () => server.requests.filter((q) => q.method === 'POST').map((q) => (q.body as { name: string }).name);
      // Sequential: the third part is never attempted once the second fails.
      expect(posted()).toEqual(['Diwali offer (1/3)', 'Diwali offer (2/3)']);
      expect(r.stderr).toContain('Part 2 of 3 ("Diwali offer (2/3)") was not created');
      expect(r.stderr).toMatch(/Already created[^\n]*\n\s+Diwali offer \(1\/3\)\s+id-1\n/);
      const resume = /create the rest with:\n\s+(voicectl .+)$/m.exec(r.stderr)?.[1];
      expect(resume).toBe(`voicectl campaign create --name 'Diwali offer' --agent ${AGENT_ID} --csv ${file} --split --split-from 2`);

      fail = false;
      // Run the printed line through a real shell, as a user pasting it would.
      const sh = await execa('sh', ['-c', `voicectl() { "${process.execPath}" "${BIN}" "$@"; }; ${resume} --json`], {
        reject: false, extendEnv: false, env: { ...baseEnv(files.dir), VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_fake' },
      });
      const again = { exitCode: sh.exitCode, stdout: String(sh.stdout), stderr: String(sh.stderr) };
      expect(again.exitCode).toBe(0);
      expect(posted().slice(2)).toEqual(['Diwali offer (2/3)', 'Diwali offer (3/3)']);
      expect((JSON.parse(again.stdout) as Array<{ name: string }>).map((c) => c.name)).toEqual(['Diwali offer (2/3)', 'Diwali offer (3/3)']);
    });
  });

  describe('a service without GET /campaigns', () => {
    it('says plainly that it does not list campaigns and points at `campaign get`', async () => {
      const server = await fake.start({ 'GET /campaigns': () => ({ status: 405, body: { error: 'Method Not Allowed', status_code: 405 } }) });
      const r = await run(['campaign', 'list']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('This service does not list campaigns');
      expect(r.stderr).toContain('voicectl campaign get ID');
    });

    it('404 on the path means the same', async () => {
      const server = await fake.start({});
      const r = await run(['campaign', 'list', '--all']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('This service does not list campaigns (GET /campaigns answered HTTP 404)');
    });
  });

  describe('launch against other servers', () => {
    it('a 409 from the service is a clear "not a draft" message, exit 1', async () => {
      const server = await fake.start({
        'GET /campaigns/:id': () => ({ status: 200, body: { id: CAMPAIGN.id, name: 'Fake' } }),
        'GET /campaigns/:id/contacts': () => ({ status: 200, body: [{ phone_number: '+919876543210', status: 'pending' }] }),
        'POST /campaigns/:id/launch': () => ({ status: 409, body: { error: 'campaign already launched', status_code: 409 } }),
      });
      const r = await run(['campaign', 'launch', CAMPAIGN.id, '--ignore-calling-hours', '--yes']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`Campaign ${CAMPAIGN.id} cannot be launched: it is not a draft (the service answered 409: campaign already launched)`);
    });

    it('an empty launch response is fine: the next step is printed', async () => {
      const server = await fake.start({
        'GET /campaigns/:id': () => ({ status: 200, body: CAMPAIGN }),
        'POST /campaigns/:id/launch': () => ({ status: 204 }),
      });
      const r = await run(['campaign', 'launch', CAMPAIGN.id, '--ignore-calling-hours', '--yes', '--json']);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ id: CAMPAIGN.id, status: 'running' });
      expect(r.stderr).toContain('dialing 3 contacts');
      expect(r.stderr).toContain(`voicectl watch ${CAMPAIGN.id}`);
      expect(server.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    });
  });
});
