/**
 * apply under concurrency and with creates in flight: two runs at once, a create whose
 * answer never came, a secrets file that cannot be written.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, harness, type Harness } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { agents, writes } from './gitops-helpers.js';

let h: Harness;
let tmp: TempDir;
beforeAll(async () => {
  h = await harness({ allowLocalWebhooks: true });
});
afterAll(async () => h.close());
beforeEach(() => {
  tmp?.remove();
  tmp = tempDir();
});

const agentYaml = (handle: string, name: string) => `  ${handle}:\n    name: ${name}\n    voice_name: Priya\n    greeting: Hi\n    call_purpose: Test\n    prompt: Short.\n    tools: []\n`;
const named = async (name: string) => (await agents(h.api)).filter((a) => a.name === name);

/**
 * A service that holds its answers to creates until the test releases them: what the
 * emulator must not do, and what makes "while a create is in flight" a fact, not a race.
 */
async function holdingServer() {
  let release!: () => void;
  const answer = new Promise<void>((r) => { release = r; });
  let arrived!: () => void;
  const firstCreate = new Promise<void>((r) => { arrived = r; });
  const creates: string[] = [];
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && req.url?.startsWith('/agents')) return send(200, { agents: [], total: 0, limit: 100, offset: 0 });
    if (req.method === 'GET' && req.url?.startsWith('/webhooks/endpoints')) return send(200, { endpoints: [] });
    if (req.method === 'POST' && (req.url === '/webhooks/endpoints' || req.url === '/agents')) {
      creates.push(req.url);
      arrived();
      const n = creates.length;
      void answer.then(() => send(201, req.url === '/agents'
        ? { id: `agt_${n}`, name: 'Held agent', voice_name: 'Priya' }
        : { id: `ep_${n}`, url: 'https://example.com/hooks', events: ['call.ended'], enabled: true, secret: 'whsec_abcdefabcdef0123' }));
      return undefined;
    }
    return send(404, { error: 'not found', status_code: 404 });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    env: { ...h.env, VOICECTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, VOICECTL_API_KEY: 'sk_test_holding' },
    creates,
    firstCreate,
    release,
    close: async () => {
      release();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('two applies at once', () => {
  it('the second one says another apply is running and sends nothing; no agent is created twice', async () => {
    const service = await holdingServer();
    try {
      writeFileSync(join(tmp.dir, 'voicectl.yaml'), `version: 1\nagents:\n${agentYaml('held', 'Held agent')}`);
      const first = execa(process.execPath, [BIN, 'apply', tmp.dir, '--yes'], { env: service.env, extendEnv: false, reject: false });
      await service.firstCreate;
      const second = await execa(process.execPath, [BIN, 'apply', tmp.dir, '--yes'], { env: service.env, extendEnv: false, reject: false });
      expect(second.exitCode).toBe(1);
      expect(second.stderr).toContain('another apply is running');
      service.release();
      const done = await first;
      expect(done.exitCode, String(done.stderr)).toBe(0);
      expect(service.creates).toEqual(['/agents']);
      // Released at the end: the next run goes ahead.
      expect(existsSync(join(tmp.dir, 'voicectl.lock.json.lock'))).toBe(false);
    } finally {
      await service.close();
    }
  }, 60_000);
});

describe('a create whose answer never came', () => {
  const lockWith = (agentsSection: Record<string, unknown>) => JSON.stringify({ version: 1, base_url: h.sandbox.url, agents: agentsSection, documents: {}, webhooks: {} });

  it('is not sent again silently: apply refuses with what to do, plan warns, --resend-pending sends it once', async () => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), `version: 1\nagents:\n${agentYaml('late', 'Late agent')}`);
    writeFileSync(join(tmp.dir, 'voicectl.lock.json'), lockWith({ late: { pending: 'create', name: 'Late agent' } }));
    const before = h.sandbox.requests.length;
    const r = await h.run(['apply', tmp.dir, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('An earlier apply sent these creates and stopped before the answer');
    expect(r.stderr).toContain('create agent late ("Late agent")');
    expect(r.stderr).toContain('--resend-pending');
    expect(writes(h.sandbox.requests.slice(before))).toEqual([]);

    const plan = await h.run(['plan', tmp.dir]);
    expect(plan.exitCode).toBe(0);
    expect(plan.stderr).toContain('agents.late: the account has no agent named "Late agent", but an earlier apply sent its create');

    const again = await h.run(['apply', tmp.dir, '--yes', '--resend-pending']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(writes(h.sandbox.requests.slice(before)).map((q) => `${q.method} ${q.path}`)).toEqual(['POST /agents']);
    expect(await named('Late agent')).toHaveLength(1);
  });

  it('is found and recorded when it did arrive', async () => {
    const created = await h.api('POST', '/agents', { name: 'Arrived agent', voice_name: 'Priya', greeting: 'Hi', call_purpose: 'Test', prompt: 'Short.', tools: [] });
    expect(created.status).toBe(201);
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), `version: 1\nagents:\n${agentYaml('arrived', 'Arrived agent')}`);
    writeFileSync(join(tmp.dir, 'voicectl.lock.json'), lockWith({ arrived: { pending: 'create', name: 'Arrived agent' } }));
    const plan = await h.run(['plan', tmp.dir]);
    expect(plan.stderr).toContain('agents.arrived: an earlier apply sent its create and stopped before the answer; it did arrive');
    const r = await h.run(['apply', tmp.dir, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await named('Arrived agent')).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(tmp.dir, 'voicectl.lock.json'), 'utf8')).agents.arrived.id).toBeTruthy();
  });

  it('plan warns when the lock maps two handles to one agent', async () => {
    const [a] = await agents(h.api);
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'version: 1\nagents: {}\n');
    writeFileSync(join(tmp.dir, 'voicectl.lock.json'), lockWith({ x: { id: a!.id, name: a!.name }, y: { id: a!.id, name: a!.name } }));
    const r = await h.run(['plan', tmp.dir]);
    expect(r.stderr).toContain(`the lock maps agents x, y to one id "${a!.id}"`);
    expect(r.stderr).toContain(`the lock maps agents x, y to one name ${JSON.stringify(a!.name)}`);
  });
});

describe('--secrets-out', () => {
  const hookYaml = (url: string) => `version: 1\nwebhooks:\n  crm:\n    url: ${url}\n`;

  it('that cannot be written is refused before anything is created', async () => {
    const dir = join(tmp.dir, 'acct');
    mkdirSync(dir);
    writeFileSync(join(dir, 'voicectl.yaml'), hookYaml('http://127.0.0.1:9/first'));
    const before = h.sandbox.requests.length;
    const r = await h.run(['apply', dir, '--yes', '--secrets-out', join(tmp.dir, 'no-such-folder', 'secrets.json')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--secrets-out');
    expect(r.stderr).toContain('Nothing was sent');
    expect(h.sandbox.requests.length).toBe(before);
  });

  it.runIf(process.platform !== 'win32')('that is a FIFO is refused at once instead of hanging', async () => {
    const dir = join(tmp.dir, 'acct');
    mkdirSync(dir);
    writeFileSync(join(dir, 'voicectl.yaml'), hookYaml('http://127.0.0.1:9/first'));
    const fifo = join(tmp.dir, 'secrets.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await h.run(['apply', dir, '--yes', '--secrets-out', fifo], { timeout: 20_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('it is not a regular file');
  }, 30_000);

  it('that fails after the create: the step is done, the lock knows the endpoint, the way to a new secret is printed, exit 1', async () => {
    const service = await holdingServer();
    try {
      const dir = join(tmp.dir, 'acct');
      const out = join(tmp.dir, 'out');
      mkdirSync(dir);
      mkdirSync(out);
      writeFileSync(join(dir, 'voicectl.yaml'), hookYaml('https://example.com/hooks'));
      const child = execa(process.execPath, [BIN, 'apply', dir, '--yes', '--secrets-out', join(out, 'secrets.json')], { env: service.env, extendEnv: false, reject: false });
      // The folder goes away while the create is answered.
      await service.firstCreate;
      rmSync(out, { recursive: true, force: true });
      service.release();
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(1);
      expect(r.stderr).toContain('✓ create webhook crm');
      expect(r.stderr).toContain('voicectl webhook rotate-secret ep_1');
      expect(r.stderr).toContain('Everything was applied');
      expect(r.stderr).not.toContain('whsec_abcdefabcdef0123');
      const lock = JSON.parse(readFileSync(join(dir, 'voicectl.lock.json'), 'utf8'));
      expect(lock.webhooks.crm.id).toBe('ep_1');
      expect(lock.webhooks.crm.pending).toBeUndefined();
    } finally {
      await service.close();
    }
  }, 30_000);
});
