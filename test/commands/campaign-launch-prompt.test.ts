/** The launch confirmation a person at a terminal sees, answered through the context's stdin. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { tempDir, waitFor } from '../config/harness.js';
import { clientFor, ok } from '../helpers/given.js';
import { run } from '../helpers/run.js';

let sandbox: Sandbox;
let agentId = '';
const cfg = tempDir();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 600, seed: 3 });
  agentId = (await api('POST', '/agents', { name: 'A', voice_name: 'Ananya', greeting: 'Hi', call_purpose: 'x', prompt: 'y', tools: [] })).id;
});
afterAll(async () => {
  await sandbox.close();
  cfg.remove();
});

const api = (method: string, path: string, body?: unknown) => ok<{ id: string }>(clientFor(sandbox), method, path, body);

async function draft(name: string): Promise<string> {
  const contacts = ['+919876543210', '+919988776655', '+442079460958'].map((phone_number) => ({ phone_number }));
  return (await api('POST', '/campaigns/json', { name, agent_id: agentId, contacts })).id;
}

/** What a person reads: inquirer's colours, cursor moves and line wrapping removed. */
function plain(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\s+/g, ' ');
}

const env = () => ({ VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey, VOICECTL_CONFIG_DIR: cfg.dir });
const launched = (id: string) => sandbox.requests.filter((r) => r.method === 'POST' && r.path === `/campaigns/${id}/launch`);

describe('campaign launch on a terminal', () => {
  it('asks with the campaign\'s name and how many contacts will be dialed; yes launches', async () => {
    const id = await draft('Diwali follow-up');
    const r = await run(['campaign', 'launch', id, '--ignore-calling-hours'], {
      env: env(),
      tty: true,
      answer: async ({ stdin, stderr }) => {
        await waitFor(stderr, 'Launch "Diwali follow-up"');
        stdin.write('y\n');
      },
    });
    expect(plain(r.stderr)).toContain(`Launch "Diwali follow-up" (${id})? It dials 3 contacts: real calls that use the account balance.`);
    expect(r.exitCode).toBe(0);
    expect(launched(id)).toHaveLength(1);
  });

  it('no launches nothing', async () => {
    const id = await draft('Not today');
    const r = await run(['campaign', 'launch', id, '--ignore-calling-hours'], {
      env: env(),
      tty: true,
      answer: async ({ stdin, stderr }) => {
        await waitFor(stderr, 'Launch "Not today"');
        stdin.write('n\n');
      },
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Cancelled: nothing was launched.');
    expect(launched(id)).toHaveLength(0);
  });

  it('--no-input on a terminal still needs --yes', async () => {
    const id = await draft('No input');
    const r = await run(['campaign', 'launch', id, '--ignore-calling-hours', '--no-input'], { env: env(), tty: true });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Pass --yes to confirm (--no-input is set)');
    expect(launched(id)).toHaveLength(0);
  });

  it('create --launch asks before creating anything; no leaves nothing behind', async () => {
    const before = sandbox.requests.filter((q) => q.method === 'POST').length;
    const r = await run(['campaign', 'create', '--name', 'Asked first', '--agent', agentId, '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--ignore-calling-hours'], {
      env: env(),
      tty: true,
      answer: async ({ stdin, stderr }) => {
        await waitFor(stderr, 'Launch "Asked first"');
        stdin.write('n\n');
      },
    });
    expect(plain(r.stderr)).toContain('It dials 25 contacts');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Cancelled: nothing was created or launched.');
    expect(sandbox.requests.filter((q) => q.method === 'POST').length).toBe(before);
  });

  it('get draws a bar per status on a terminal', async () => {
    const id = await draft('Bars');
    const r = await run(['campaign', 'get', id], { env: env(), tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\s+pending\s+3\s+100%\s+█{30}$/m);
    expect(r.stdout).toMatch(/^\s+completed\s+0\s+0%\s+░{30}$/m);
  });

  it('create --dry-run shows a summary table on a terminal and sends nothing', async () => {
    const before = sandbox.requests.length;
    const r = await run(['campaign', 'create', '--name', 'Preview', '--agent', agentId, '--csv', 'fixtures/contacts/phone-reasons.csv', '--default-country', 'IN', '--skip-invalid', '--dry-run'], { env: env(), tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`Would create campaign "Preview" for agent ${agentId}:`);
    expect(r.stdout).toMatch(/^ROW\s+NUMBER\s+NAME\s+EXTRA$/m);
    expect(r.stdout).toMatch(/^14\s+\+919876543210\s+Valid One\s+\{"note":"this row is fine"\}$/m);
    expect(r.stderr).toContain('Dry run: nothing was sent.');
    expect(sandbox.requests.length).toBe(before);
  });
});
