import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { clientFor } from '../helpers/given.js';
import { referenceCheck } from '../webhooks/reference-hmac.js';
import { startReceiver, type Receiver } from '../webhooks/capture-server.js';

let dir: string;
let rx: Receiver;
const open: Sandbox[] = [];
let failing = true;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'voicectl-webhook-state-'));
  rx = await startReceiver(() => (failing ? 500 : 200));
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await rx.close();
  await rm(dir, { recursive: true, force: true });
});

const post = async (sb: Sandbox, path: string, body?: unknown) => (await clientFor(sb)('POST', path, body)).body;

it('keeps a pending retry across a restart and delivers it with the same event id', async () => {
  const stateFile = join(dir, 'state.json');
  // Slow clock first: the retry is an hour of real time away when the sandbox stops.
  const first = await startSandbox({ port: 0, timeScale: 1, allowLocalWebhooks: true, stateFile });
  open.push(first);
  const ep = await post(first, '/webhooks/endpoints', { url: rx.url });
  const sent = await post(first, `/webhooks/endpoints/${ep.id}/test`);
  expect(sent.delivery).toMatchObject({ status: 'pending', attempts: 1 });
  await first.close();

  failing = false;
  const second = await startSandbox({ port: 0, timeScale: 100_000, allowLocalWebhooks: true, stateFile });
  open.push(second);
  expect(second.apiKey).toBe(first.apiKey);
  const [, retry] = await rx.waitFor(2);
  expect(retry!.json.id).toBe(sent.event_id);
  expect(referenceCheck(ep.secret, retry!.raw, String(retry!.headers['service-signature'])).ok).toBe(true);
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${second.url}/webhooks/endpoints/${ep.id}/deliveries`, { headers: { 'x-api-key': second.apiKey } });
    const [d] = ((await res.json()) as any).deliveries;
    if (d.status === 'delivered') {
      expect(d).toMatchObject({ attempts: 2, last_response_code: 200, event_id: sent.event_id });
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the retry was never recorded as delivered');
});
