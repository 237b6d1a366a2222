/**
 * Answers the sandbox never gives but another server may: a row rejected by the service
 * itself, a failure part-way through a split, no campaign listing, a 409 on launch, an
 * empty launch response. Each against a small node:http fake.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ID, agentRoute, fakeServer, type FakeServer } from '../commands/campaign-fake-server.js';
import { execa } from 'execa';
import { BIN, baseEnv, runCli } from '../helpers/cli.js';

let dir = '';
let server: FakeServer | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'voicectl-campaign-fake-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function run(args: string[]) {
  return runCli(args, { ...baseEnv(dir), VOICECTL_BASE_URL: server!.url, VOICECTL_API_KEY: 'sk_fake' });
}

const CAMPAIGN = { id: 'c0ffee00-0000-4000-8000-000000000001', name: 'Fake', status: 'draft', contacts_by_status: { pending: 3 } };

describe('the service rejects a row that passed local checks', () => {
  it('shows the service\'s message with the spreadsheet row of contacts[3]', async () => {
    // Row 4 is blank and row 5 invalid (skipped), so contacts[3] is row 7, not row 5.
    const file = join(dir, 'rows.csv');
    writeFileSync(file, 'name,phone\nA,+919876543210\nB,+919988776655\n\nC,12345\nD,+442079460958\nE,+14155552671\n');
    server = await fakeServer({
      ...agentRoute,
      'POST /campaigns/json': () => ({ status: 422, body: { error: 'contacts[3].phone_number: this number is on the national do-not-call registry', status_code: 422 } }),
    });
    const r = await run(['campaign', 'create', '--name', 'X', '--agent', AGENT_ID, '--csv', file, '--skip-invalid']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('The service rejected row 7 of rows.csv (+14155552671, E), sent as contacts[3]: contacts[3].phone_number: this number is on the national do-not-call registry (HTTP 422).');
    expect(server.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  it('a rejection that names no row keeps the service\'s own error', async () => {
    server = await fakeServer({
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
    const file = join(dir, 'big.csv');
    const lines = ['name,phone'];
    for (let i = 0; i < 20_001; i++) lines.push(`Lead ${i},+91 97${String(i).padStart(8, '0')}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    let fail = true;
    server = await fakeServer({
      ...agentRoute,
      'POST /campaigns/json': (req) => {
        const name = (req.body as { name: string }).name;
        if (name.includes('(2/3)') && fail) return { status: 503, body: { error: 'service unavailable', status_code: 503 } };
        return { status: 201, body: { id: `id-${/\((\d)\/3\)/.exec(name)![1]}`, name, status: 'draft' } };
      },
    });
    const r = await run(['campaign', 'create', '--name', 'Diwali offer', '--agent', AGENT_ID, '--csv', file, '--split', '--json']);
    expect(r.exitCode).toBe(1);
    const posted = () => server!.requests.filter((q) => q.method === 'POST').map((q) => (q.body as { name: string }).name);
    // Sequential: the third part is never attempted once the second fails.
    expect(posted()).toEqual(['Diwali offer (1/3)', 'Diwali offer (2/3)']);
    expect(r.stderr).toContain('Part 2 of 3 ("Diwali offer (2/3)") was not created');
    expect(r.stderr).toMatch(/Already created[^\n]*\n\s+Diwali offer \(1\/3\)\s+id-1\n/);
    const resume = /create the rest with:\n\s+(voicectl .+)$/m.exec(r.stderr)?.[1];
    expect(resume).toBe(`voicectl campaign create --name 'Diwali offer' --agent ${AGENT_ID} --csv ${file} --split --split-from 2`);

    fail = false;
    // Run the printed line through a real shell, as a user pasting it would.
    const sh = await execa('sh', ['-c', `voicectl() { "${process.execPath}" "${BIN}" "$@"; }; ${resume} --json`], {
      reject: false, extendEnv: false, env: { ...baseEnv(dir), VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_fake' },
    });
    const again = { exitCode: sh.exitCode, stdout: String(sh.stdout), stderr: String(sh.stderr) };
    expect(again.exitCode).toBe(0);
    expect(posted().slice(2)).toEqual(['Diwali offer (2/3)', 'Diwali offer (3/3)']);
    expect((JSON.parse(again.stdout) as Array<{ name: string }>).map((c) => c.name)).toEqual(['Diwali offer (2/3)', 'Diwali offer (3/3)']);
  });
});

describe('a service without GET /campaigns', () => {
  it('says plainly that it does not list campaigns and points at `campaign get`', async () => {
    server = await fakeServer({ 'GET /campaigns': () => ({ status: 405, body: { error: 'Method Not Allowed', status_code: 405 } }) });
    const r = await run(['campaign', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('This service does not list campaigns');
    expect(r.stderr).toContain('voicectl campaign get ID');
  });

  it('404 on the path means the same', async () => {
    server = await fakeServer({});
    const r = await run(['campaign', 'list', '--all']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('This service does not list campaigns (GET /campaigns answered HTTP 404)');
  });
});

describe('launch against other servers', () => {
  it('a 409 from the service is a clear "not a draft" message, exit 1', async () => {
    server = await fakeServer({
      'GET /campaigns/:id': () => ({ status: 200, body: { id: CAMPAIGN.id, name: 'Fake' } }),
      'GET /campaigns/:id/contacts': () => ({ status: 200, body: [{ phone_number: '+919876543210', status: 'pending' }] }),
      'POST /campaigns/:id/launch': () => ({ status: 409, body: { error: 'campaign already launched', status_code: 409 } }),
    });
    const r = await run(['campaign', 'launch', CAMPAIGN.id, '--ignore-calling-hours', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`Campaign ${CAMPAIGN.id} cannot be launched: it is not a draft (the service answered 409: campaign already launched)`);
  });

  it('an empty launch response is fine: the next step is printed', async () => {
    server = await fakeServer({
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
