/**
 * The one set of test factories: the world a test starts from, made through the emulator's
 * own HTTP API (so every object is one the service could have answered), never by hand.
 */
import type { Sandbox } from '../../src/sandbox/index.js';

// Response bodies are JSON whose shape each test asserts.
export type Res = { status: number; body: any; headers: Headers };

export interface Client {
  (method: string, path: string, body?: unknown, key?: string | null): Promise<Res>;
}

/** A tiny JSON client for the sandbox (key null: send none). */
export function clientFor(sb: Pick<Sandbox, 'url' | 'apiKey'>): Client {
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

export async function givenCampaign(api: Client, agentId: string, n: number, key?: string, name = `Campaign of ${n}`): Promise<any> {
  const res = await api('POST', '/campaigns/json', { name, agent_id: agentId, contacts: contacts(n) }, key);
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

/** A campaign of n contacts, launched and run to completion: its calls, recordings and events exist. */
export async function givenFinishedCampaign(api: Client, opts: { agentId?: string; contacts?: number; name?: string; key?: string } = {}): Promise<any> {
  const agentId = opts.agentId ?? (await givenAgent(api, {}, opts.key)).id;
  const campaign = await givenCampaign(api, agentId, opts.contacts ?? 12, opts.key, opts.name);
  const launched = await api('POST', `/campaigns/${campaign.id}/launch`, undefined, opts.key);
  if (launched.status >= 300) throw new Error(`launch failed: ${launched.status} ${JSON.stringify(launched.body)}`);
  return campaignDone(api, campaign.id, opts.key);
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
