/** The `webhook` verbs against the sandbox, asserting on what reached the server. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, harness, runCli, sharedHarness } from '../../helpers/cli.js';
import { type Listening, listenOnLoopback } from '../../helpers/loopback.js';
import { tmpdir } from 'node:os';

describe('against the sandbox', () => {
  const h = sharedHarness({ allowLocalWebhooks: true });

  const posts = () => h.sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/webhooks/endpoints');

  async function create(url = 'https://hooks.example.com/voice', extra: string[] = []): Promise<{ id: string; secret: string }> {
    const r = await h.run(['webhook', 'create', '--url', url, ...extra, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { id: string; secret: string };
  }

  describe('webhook create', () => {
    it('refuses plain HTTP and private or local hosts before sending anything', async () => {
      const before = posts().length;
      const cases: Array<[string, RegExp]> = [
        ['http://hooks.example.com/voice', /plain HTTP is not accepted/],
        ['https://192.168.1.20/hook', /private-network address/],
        ['https://10.1.2.3/hook', /private-network address/],
        ['https://127.0.0.1:4242/', /loopback/],
        ['https://localhost/hook', /localhost/],
        ['https://[::1]/hook', /loopback/],
        ['https://printer.local/hook', /local-network name/],
        ['not a url', /not a URL/],
      ];
      for (const [url, reason] of cases) {
        const r = await h.run(['webhook', 'create', '--url', url]);
        expect(r.exitCode, url).toBe(2);
        expect(r.stderr, url).toMatch(reason);
      }
      expect(posts().length).toBe(before);
    });

    it('refuses an unknown event type before sending', async () => {
      const before = posts().length;
      const r = await h.run(['webhook', 'create', '--url', 'https://hooks.example.com/x', '--events', 'call.ended,call.started']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/Unknown event type: call\.started/);
      expect(posts().length).toBe(before);
    });

    it('shows the secret once with a warning; --json includes it; sends url and events', async () => {
      const table = await h.run(['webhook', 'create', '--url', 'https://hooks.example.com/a', '--events', 'call.ended,ping']);
      expect(table.exitCode, table.stderr).toBe(0);
      expect(table.stdout).toMatch(/^secret\s+\S{16,}$/m);
      expect(table.stderr).toMatch(/shown only once/);
      expect(posts().at(-1)!.body).toEqual({ url: 'https://hooks.example.com/a', events: ['call.ended', 'ping'] });

      const json = await create('https://hooks.example.com/b');
      expect(json.secret).toEqual(expect.any(String));
      expect(posts().at(-1)!.body).toEqual({ url: 'https://hooks.example.com/b' });
    });

    it('--allow-local lets the server decide, and --save-secret stores the secret in the profile', async () => {
      const ep = await create('http://127.0.0.1:4242/', ['--allow-local', '--save-secret']);
      const config = JSON.parse(readFileSync(join(h.configDir, 'config.json'), 'utf8'));
      expect(config.profiles.default).toMatchObject({ webhook_secret: ep.secret, webhook_endpoint: ep.id });
      const shown = await h.run(['config', 'list', '--json']);
      expect(shown.stdout).not.toContain(ep.secret);
    });

    it('with --allow-local, a server that refuses local URLs says why (exit 1)', async () => {
      const strict = await harness();
      try {
        const r = await strict.run(['webhook', 'create', '--url', 'http://127.0.0.1:4242/', '--allow-local']);
        expect(r.exitCode).toBe(1);
        expect(r.stderr).toMatch(/POST \/webhooks\/endpoints failed \(HTTP 400\)/);
        expect(strict.sandbox.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
      } finally {
        await strict.close();
      }
    });
  });

  describe('the other verbs', () => {
    it('lists endpoints without their secrets', async () => {
      const ep = await create('https://hooks.example.com/listed');
      const r = await h.run(['webhooks', 'list', '--json']);
      expect(r.exitCode).toBe(0);
      const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
      expect(list.find((e) => e.id === ep.id)).toMatchObject({ url: 'https://hooks.example.com/listed', enabled: true });
      const table = await h.run(['webhook', 'list', '-o', 'table']);
      expect(table.stdout).toMatch(/ID\s+URL\s+EVENTS\s+ENABLED/);
      expect(table.stdout).not.toContain(ep.secret);
    });

    it('update sends only the fields given', async () => {
      const ep = await create('https://hooks.example.com/upd');
      const r = await h.run(['webhook', 'update', ep.id, '--disable', '--json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ id: ep.id, enabled: false });
      const patches = () => h.sandbox.requests.filter((q) => q.method === 'PATCH' && q.path === `/webhooks/endpoints/${ep.id}`);
      expect(patches().at(-1)!.body).toEqual({ enabled: false });
      await h.run(['webhook', 'update', ep.id, '--enable', '--events', 'campaign.completed']);
      expect(patches().at(-1)!.body).toEqual({ enabled: true, events: ['campaign.completed'] });
      const refused = await h.run(['webhook', 'update', ep.id, '--url', 'http://example.com/x']);
      expect(refused.exitCode).toBe(2);
      expect((await h.run(['webhook', 'update', ep.id])).exitCode).toBe(2);
      expect((await h.run(['webhook', 'update', ep.id, '--enable', '--disable'])).exitCode).toBe(2);
      expect(patches()).toHaveLength(2);
    });

    it('rotate-secret shows the new secret once and can save it', async () => {
      const ep = await create('https://hooks.example.com/rot');
      const r = await h.run(['webhook', 'rotate-secret', ep.id, '--save-secret', '--yes']);
      expect(r.exitCode, r.stderr).toBe(0);
      const secret = /^secret\s+(\S+)$/m.exec(r.stdout)![1]!;
      expect(secret).not.toBe(ep.secret);
      const config = JSON.parse(readFileSync(join(h.configDir, 'config.json'), 'utf8'));
      expect(config.profiles.default).toMatchObject({ webhook_secret: secret, webhook_endpoint: ep.id });
    });

    it('deliveries shows status, attempts, last response code and next retry', async () => {
      // Nothing listens on port 9: the ping fails and is scheduled for a retry.
      const ep = await create('http://127.0.0.1:9/', ['--allow-local']);
      const test = await h.run(['webhook', 'test', ep.id]);
      expect(test.exitCode, test.stderr).toBe(0);
      const r = await h.run(['webhook', 'deliveries', ep.id, '-o', 'table']);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/STATUS\s+ATTEMPTS\s+LAST CODE\s+NEXT RETRY/);
      // At 600x the 1-minute retry comes within a second: one or more attempts, still pending.
      // In the user's zone (the system's, UTC here, or --tz), named; -o csv keeps UTC ISO 8601.
      // The retry may be due already when the table is read (a loaded machine): "(1s ago)".
      const relative = String.raw`\((in \d+(\.\d)?[smh]|\d+(\.\d)?[smh] ago)\)`;
      expect(r.stdout).toMatch(new RegExp(String.raw`ping\s+pending\s+[1-8]\s+(-\s+)?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC ${relative}`));
      const kolkata = await h.run(['webhook', 'deliveries', ep.id, '-o', 'table', '--tz', 'Asia/Kolkata']);
      expect(kolkata.stdout).toMatch(new RegExp(String.raw`ping\s+pending\s+[1-8]\s+(-\s+)?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d IST ${relative}`));
      const csv = await h.run(['webhook', 'deliveries', ep.id, '-o', 'csv', '--tz', 'Asia/Kolkata']);
      // CSV: the instant alone, the same at every read.
      expect(csv.stdout).toMatch(/,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,/);
      expect(csv.stdout).not.toMatch(/\(in |ago\)/);
      const json = await h.run(['webhook', 'deliveries', ep.id, '--json']);
      expect(JSON.parse(json.stdout)).toHaveLength(1);
    });

    it('delete asks first: under --no-input it needs --yes, and nothing is deleted without it', async () => {
      const ep = await create('https://hooks.example.com/del');
      const deletes = () => h.sandbox.requests.filter((q) => q.method === 'DELETE' && q.path === `/webhooks/endpoints/${ep.id}`);
      const refused = await h.run(['webhook', 'delete', ep.id, '--no-input']);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toMatch(/--yes/);
      expect(deletes()).toHaveLength(0);
      const ok = await h.run(['webhook', 'delete', ep.id, '--yes']);
      expect(ok.exitCode, ok.stderr).toBe(0);
      expect(deletes()).toHaveLength(1);
      expect((await h.run(['webhook', 'delete', ep.id, '--yes'])).exitCode).toBe(4);
    });
  });

  describe('a server without a list endpoint', () => {
    let server: Listening;
    let url: string;
    beforeAll(async () => {
      server = await listenOnLoopback(createServer((req, res) => {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not Found', status_code: 404 }));
      }));
      url = server.url;
    });
    afterAll(() => server.close());

    it('says so plainly and exits 1 with a hint', async () => {
      const r = await runCli(['webhook', 'list'], { ...h.env, VOICECTL_BASE_URL: url });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/no way to list webhook endpoints \(GET \/webhooks\/endpoints answered 404\)/);
      expect(r.stderr).toMatch(/Keep the id/);
    });
  });
});

describe('against a server with other shapes', () => {
  /**
   * The spec leaves the delivery record's field names and several response bodies open:
   * the webhook verbs against a server that names things differently from the sandbox.
   */
  let server: Server;
  let listening: Listening;
  let env: Record<string, string>;
  let dir: string;
  const seen: Array<{ method: string; url: string; body: string }> = [];

  const routes: Record<string, () => [number, unknown]> = {
    'GET /v1/webhooks/endpoints/ep_1/deliveries': () => [200, {
      data: [
        { delivery_id: 'd1', event: { id: 'evt_1', type: 'call.ended' }, state: 'retrying', attempt_count: 3, last_status: 500, next_attempt_at: '2030-01-01T00:00:00Z' },
        { id: 'd2', event_id: 'evt_2', type: 'ping', status: 'delivered', attempts: [{ status_code: 502 }, { status_code: 200 }] },
        { id: 'd3', event_id: 'evt_3', event_type: 'campaign.completed', status: 'failed', num_attempts: 8, response_status: 410, next_retry: null },
      ],
    }],
    'POST /v1/webhooks/endpoints/ep_1/rotate-secret': () => [200, { endpoint: { id: 'ep_1', signing_secret: 'whsec_rotated_elsewhere' } }],
    'POST /v1/webhooks/endpoints/ep_1/test': () => [202, ''],
    'PATCH /v1/webhooks/endpoints/ep_1': () => [204, ''],
    'DELETE /v1/webhooks/endpoints/ep_1': () => [204, ''],
    'POST /v1/webhooks/endpoints': () => [201, { webhook: { id: 'ep_2', url: 'https://hooks.example.com/x', enabled: true, secret: 'whsec_wrapped' } }],
    'GET /v1/webhooks/endpoints': () => [405, { error: 'Method Not Allowed' }],
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body });
        const route = routes[`${req.method} ${req.url}`];
        const [status, payload] = route ? route() : [404, { error: 'no such route' }];
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(payload === '' ? undefined : JSON.stringify(payload));
      });
    });
    listening = await listenOnLoopback(server);
    dir = mkdtempSync(join(tmpdir(), 'voicectl-webhook-shapes-'));
    env = { ...baseEnv(dir), VOICECTL_BASE_URL: `${listening.url}/v1`, VOICECTL_API_KEY: 'sk_test_shapes' };
  });
  afterAll(async () => {
    await listening.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('a server with other field names and bodies', () => {
    it('reads attempts, last response code and next retry under other names', async () => {
      const r = await runCli(['webhook', 'deliveries', 'ep_1', '-o', 'csv'], env);
      expect(r.exitCode, r.stderr).toBe(0);
      const rows = r.stdout.trim().split('\n');
      expect(rows[0]).toBe('id,event,type,status,attempts,last_code,next_retry,failure');
      expect(rows[1]).toMatch(/^d1,evt_1,call\.ended,retrying,3,500,2030-01-01T00:00:00Z,/);
      expect(rows[2]).toBe('d2,evt_2,ping,delivered,2,200,,');
      expect(rows[3]).toBe('d3,evt_3,campaign.completed,failed,8,410,,answered 410');
    });

    it('finds a rotated secret nested under another name', async () => {
      const r = await runCli(['webhook', 'rotate-secret', 'ep_1', '--yes'], env);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^secret\s+whsec_rotated_elsewhere$/m);
    });

    it('copes with empty answers to test, update and delete', async () => {
      expect((await runCli(['webhook', 'test', 'ep_1'], env)).exitCode).toBe(0);
      const upd = await runCli(['webhook', 'update', 'ep_1', '--disable', '--json'], env);
      expect(upd.exitCode, upd.stderr).toBe(0);
      expect(JSON.parse(upd.stdout)).toEqual({ id: 'ep_1', enabled: false });
      expect(seen.find((s) => s.method === 'PATCH')!.body).toBe('{"enabled":false}');
      expect((await runCli(['webhook', 'delete', 'ep_1', '--yes'], env)).exitCode).toBe(0);
    });

    it('unwraps a created endpoint and shows its secret', async () => {
      const r = await runCli(['webhook', 'create', '--url', 'https://hooks.example.com/x'], env);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^id\s+ep_2$/m);
      expect(r.stdout).toMatch(/^secret\s+whsec_wrapped$/m);
    });

    it('says plainly that there is no list endpoint (405)', async () => {
      const r = await runCli(['webhook', 'list'], env);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/no way to list webhook endpoints \(GET \/webhooks\/endpoints answered 405\)/);
    });
  });
});
