/**
 * Helpers for the sandbox contract tests: a tiny JSON client over fetch, factories for
 * agents and contacts, and polling on the simulated world.
 */
import { expect } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { ALL_SCOPES, type KeyDef } from '../../src/sandbox/world.js';

// Response bodies are JSON whose shape each test asserts.
export type Res = { status: number; body: any; headers: Headers };

export interface Client {
  (method: string, path: string, body?: unknown, key?: string | null): Promise<Res>;
}

export function clientFor(sb: Sandbox): Client {
  return async (method, path, body, key = sb.apiKey) => {
    const headers: Record<string, string> = {};
    if (key !== null) headers['x-api-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${sb.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, body: parsed, headers: res.headers };
  };
}

export const FULL = (key: string, org: string, extra: Partial<KeyDef> = {}): KeyDef => ({ key, org, scopes: [...ALL_SCOPES], ...extra });

/** Pinned far from midnight, so the daily dispatch cap never resets mid-test by accident. */
export const MORNING = '2025-03-10T09:00:00.000Z';

export async function sandbox(opts: SandboxOptions = {}): Promise<{ sb: Sandbox; api: Client }> {
  const sb = await startSandbox({ port: 0, timeScale: 20_000, seed: 11, startAt: MORNING, ...opts });
  return { sb, api: clientFor(sb) };
}

export const AGENT = {
  name: 'Asha',
  voice_name: 'Ananya',
  greeting: 'Hi {name}, this is Asha from Sunrise Homes.',
  call_purpose: 'Follow up on your enquiry about our apartments',
  prompt: 'Confirm interest, budget and move-in month. Offer a callback if busy.',
  tools: ['schedule_callback', 'take_message'],
};

export async function givenAgent(api: Client, overrides: Record<string, unknown> = {}, key?: string): Promise<any> {
  const res = await api('POST', '/agents', { ...AGENT, ...overrides }, key);
  if (res.status !== 201) throw new Error(`agent creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function contacts(n: number, from = 0): Array<{ phone_number: string; name: string; extra: unknown }> {
  return Array.from({ length: n }, (_, i) => ({
    phone_number: `+9198${String(10_000_000 + from + i).slice(-8)}`,
    name: `Lead ${from + i + 1}`,
    extra: { lead_id: from + i + 1, city: i % 2 ? 'Pune' : 'Chennai', tags: ['web'] },
  }));
}

export async function givenCampaign(api: Client, agentId: string, n: number, key?: string): Promise<any> {
  const res = await api('POST', '/campaigns/json', { name: `Campaign of ${n}`, agent_id: agentId, contacts: contacts(n) }, key);
  if (res.status !== 201) throw new Error(`campaign creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Polls until fn returns a value (not undefined) or the real-time limit passes. */
export async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export async function campaignDone(api: Client, id: string, key?: string): Promise<any> {
  return waitFor(async () => {
    const res = await api('GET', `/campaigns/${id}`, undefined, key);
    return res.body.status === 'completed' ? res.body : undefined;
  }, 15_000, `campaign ${id} to complete`);
}

/** Every call of a campaign, through the paginated list. */
export async function allCalls(api: Client, query = '', key?: string): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 200) {
    const res = await api('GET', `/calls?limit=200&offset=${offset}${query ? `&${query}` : ''}`, undefined, key);
    if (res.status !== 200) throw new Error(`GET /calls: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.calls);
    if (offset + 200 >= res.body.total) return out;
  }
}

/** Reads a RIFF/WAVE header independently of the sandbox's writer. */
function parseWav(buf: Buffer) {
  return {
    riff: buf.toString('ascii', 0, 4),
    riffSize: buf.readUInt32LE(4),
    wave: buf.toString('ascii', 8, 12),
    fmt: buf.toString('ascii', 12, 16),
    format: buf.readUInt16LE(20),
    channels: buf.readUInt16LE(22),
    rate: buf.readUInt32LE(24),
    byteRate: buf.readUInt32LE(28),
    bits: buf.readUInt16LE(34),
    data: buf.toString('ascii', 36, 40),
    dataSize: buf.readUInt32LE(40),
  };
}

export function expectValidWav(buf: Buffer, minSeconds: number) {
  const h = parseWav(buf);
  expect(h).toMatchObject({ riff: 'RIFF', wave: 'WAVE', fmt: 'fmt ', format: 1, data: 'data' });
  expect(h.riffSize).toBe(buf.length - 8);
  expect(h.dataSize).toBe(buf.length - 44);
  expect(h.byteRate).toBe(h.rate * h.channels * (h.bits / 8));
  expect(h.dataSize / h.byteRate).toBeGreaterThanOrEqual(minSeconds);
  // Not silence: some sample is loud.
  let peak = 0;
  for (let i = 44; i < buf.length; i += 2) peak = Math.max(peak, Math.abs(buf.readInt16LE(i)));
  expect(peak).toBeGreaterThan(1000);
}
