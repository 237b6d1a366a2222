/**
 * The one set of test factories: the world a test starts from, made through the emulator's
 * own HTTP API (so every object is one the service could have answered), never by hand.
 * The one exception, plantCalls, makes what no endpoint can: calls at chosen past times.
 * This is the only test module that calls the sandbox with fetch.
 */
import type { Sandbox } from '../../src/sandbox/index.js';
import type { Call as SandboxCall } from '../../src/sandbox/world.js';

// Response bodies are JSON whose shape each test asserts.
export type Res = { status: number; body: any; headers: Headers };

export interface Client {
  (method: string, path: string, body?: unknown, key?: string | null): Promise<Res>;
}

/** A tiny JSON client for the sandbox (key null: send none; a header given is sent as given). */
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

/** Sends a request the test expects to succeed, and returns the body. */
export async function ok<T = any>(api: Client, method: string, path: string, body?: unknown, key?: string): Promise<T> {
  const res = await api(method, path, body, key);
  if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
}

export interface ContactIn {
  phone_number: string;
  name?: string;
  extra?: unknown;
}

export function contacts(n: number, from = 0): Array<{ phone_number: string; name: string; extra: unknown }> {
  return Array.from({ length: n }, (_, i) => ({
    phone_number: `+9198${String(10_000_000 + from + i).slice(-8)}`,
    name: `Lead ${from + i + 1}`,
    extra: { lead_id: from + i + 1, city: i % 2 ? 'Pune' : 'Chennai', tags: ['web'] },
  }));
}

/** A draft campaign of n made-up contacts, or of the contacts given. */
export async function givenCampaign(api: Client, agentId: string, n: number | ContactIn[], key?: string, name = `Campaign of ${typeof n === 'number' ? n : n.length}`): Promise<any> {
  const res = await api('POST', '/campaigns/json', { name, agent_id: agentId, contacts: typeof n === 'number' ? contacts(n) : n }, key);
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
  }, 30_000, `campaign ${id} to complete`);
}

/** A campaign of n contacts (or those given), launched: its calls are under way. */
export async function givenLaunchedCampaign(api: Client, opts: { agentId?: string; contacts?: number | ContactIn[]; name?: string; key?: string } = {}): Promise<any> {
  const agentId = opts.agentId ?? (await givenAgent(api, {}, opts.key)).id;
  const campaign = await givenCampaign(api, agentId, opts.contacts ?? 12, opts.key, opts.name);
  return ok(api, 'POST', `/campaigns/${campaign.id}/launch`, undefined, opts.key);
}

/** A campaign of n contacts (or those given), launched and run to completion: its calls, recordings and events exist. */
export async function givenFinishedCampaign(api: Client, opts: { agentId?: string; contacts?: number | ContactIn[]; name?: string; key?: string } = {}): Promise<any> {
  const launched = await givenLaunchedCampaign(api, opts);
  return campaignDone(api, launched.id, opts.key);
}

/** A call of a finished campaign that has its recording (saved a moment after the call ends): its id. */
export async function givenRecordedCall(api: Client): Promise<string> {
  const { id } = await givenFinishedCampaign(api, { contacts: 6 });
  return waitFor(async () => (await allCalls(api, `campaign_id=${id}`)).find((c) => c.has_recording)?.call_id as string | undefined, 10_000, 'a call with a recording');
}

/** A knowledge-base document uploaded as a person would (multipart), optionally into a folder. */
export async function givenKbItem(sb: Pick<Sandbox, 'url'>, key: string, folder?: string): Promise<{ item: { id: string }; job_id: string }> {
  const form = new FormData();
  if (folder) form.append('folder', folder);
  form.append('file', new Blob(['Refunds take five working days.\n']), `faq-${Math.random().toString(36).slice(2)}.md`);
  const res = await fetch(`${sb.url}/kb/items`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  if (res.status >= 300) throw new Error(`kb upload failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { item: { id: string }; job_id: string };
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

/** Every call id the sandbox lists for these filters right now. */
export async function listedIds(api: Client, query: Record<string, string> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await ok<{ calls: Array<{ call_id: string }>; total: number }>(api, 'GET', `/calls?${new URLSearchParams({ ...query, limit: '200', offset: String(offset) })}`);
    ids.push(...page.calls.map((c) => c.call_id));
    if (page.calls.length === 0 || offset + 200 >= page.total) return [...new Set(ids)];
  }
}

/** Finished calls at the given real times (ms), stored as the simulation would have left them. */
export function plantCalls(sb: Sandbox, starts: number[], prefix = 'call_planted_'): string[] {
  return plant(sb, starts.map((start, i) => ({
    call_id: `${prefix}${i}`, campaign_id: null, phone_number: `+9199${String(10_000_000 + i).slice(-8)}`, outcome: 'callback_requested',
    summary: 'Planted for a time filter.', start, seconds: 30, contact: { name: `Planted ${i}`, extra: {} },
  })));
}

export interface PlantedCallback {
  phone_number: string;
  summary: string;
  /** When the call ended (ms); it started 90 s before. */
  end: number;
  outcome?: string;
  extra?: Record<string, unknown>;
}

/** Finished calls of campaign `campaignId` with the summaries given, as the simulation would have left them (no endpoint makes a call's words). */
export function plantCallbacks(sb: Sandbox, campaignId: string, calls: PlantedCallback[], prefix = 'call_cb_'): string[] {
  return plant(sb, calls.map((p, i) => ({
    call_id: `${prefix}${i}`, campaign_id: campaignId, phone_number: p.phone_number, outcome: p.outcome ?? 'callback_scheduled',
    summary: p.summary, start: p.end - 90_000, seconds: 90, contact: { name: `Callback ${i}`, extra: p.extra ?? {} },
  })));
}

/** What differs between planted calls; the rest is a completed outbound call with no agent and no recording. */
interface Planted {
  call_id: string;
  campaign_id: string | null;
  phone_number: string;
  outcome: string;
  summary: string;
  /** When it started (ms), and how long it lasted. */
  start: number;
  seconds: number;
  contact: SandboxCall['contact'];
}

/** Writes the calls into the store of the sandbox key's organisation, and its index: their ids. */
function plant(sb: Sandbox, calls: Planted[]): string[] {
  const key = sb.world.keys.get(sb.apiKey)!;
  const org = sb.world.org(key.org);
  const index = sb.world.calls(org);
  return calls.map(({ start, seconds, ...p }) => {
    const c: SandboxCall = {
      call_id: p.call_id, campaign_id: p.campaign_id, agent_id: null, agent_name: 'Planted', direction: 'outbound',
      phone_number: p.phone_number, status: 'completed', end_reason: 'completed', outcome: p.outcome,
      summary: p.summary, error: null, duration_seconds: seconds, start_time: new Date(start).toISOString(),
      end_time: new Date(start + seconds * 1000).toISOString(), has_recording: false, contact: p.contact,
      _start: start, _seed: 1, _script: 'none', _ci: -1,
    };
    org.calls[c.call_id] = c;
    index.add(c);
    return c.call_id;
  });
}
