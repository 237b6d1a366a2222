/**
 * The spec leaves the delivery record's field names and several response bodies open:
 * the webhook verbs against a server that names things differently from the sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';
import { listenOnLoopback, type Listening } from '../helpers/loopback.js';

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
    expect(rows[1]).toMatch(/^d1,evt_1,call\.ended,retrying,3,500,2030-01-01T00:00:00Z \(in /);
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
