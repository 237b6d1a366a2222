/**
 * Set-up against a running sandbox over HTTP: an agent, a campaign (launched or not),
 * waiting for completion. Plus calls planted at chosen past times, which no endpoint
 * can create, for the relative-time filters.
 */
import type { Sandbox } from '../../src/sandbox/index.js';
import type { Call as SandboxCall } from '../../src/sandbox/world.js';

export async function call<T = any>(sb: Sandbox, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(sb.url + path, {
    method,
    headers: { 'x-api-key': sb.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const agents = new WeakMap<Sandbox, string>();
async function agent(sb: Sandbox): Promise<string> {
  const known = agents.get(sb);
  if (known) return known;
  const a = await call<{ id: string }>(sb, 'POST', '/agents', {
    name: 'Export tester', voice_name: 'Priya', greeting: 'Namaste!', call_purpose: 'Confirm the delivery slot',
    prompt: 'Ask which delivery slot suits the customer.', tools: ['summarize_call'],
  });
  agents.set(sb, a.id);
  return a.id;
}

export interface ContactIn {
  phone_number: string;
  name: string;
  extra?: unknown;
}

export function contacts(n: number, from = 0, extra: (i: number) => unknown = (i) => ({ order: `ORD-${i}`, city: i % 2 ? 'Pune' : 'Chennai' })): ContactIn[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return { phone_number: `+9198${String(10_000_000 + i).slice(-8)}`, name: `Lead ${i}`, extra: extra(i) };
  });
}

export async function campaign(sb: Sandbox, list: ContactIn[], opts: { launch?: boolean } = {}): Promise<string> {
  const c = await call<{ id: string }>(sb, 'POST', '/campaigns/json', { name: `Export ${list.length}`, agent_id: await agent(sb), contacts: list });
  if (opts.launch !== false) await call(sb, 'POST', `/campaigns/${c.id}/launch`);
  return c.id;
}

export async function waitCompleted(sb: Sandbox, id: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const c = await call<{ status: string }>(sb, 'GET', `/campaigns/${id}`);
    if (c.status === 'completed') return;
    if (Date.now() > until) throw new Error(`campaign ${id} did not complete in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every call id the sandbox lists for these filters right now. */
export async function listedIds(sb: Sandbox, query: Record<string, string> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await call<{ calls: Array<{ call_id: string }>; total: number }>(sb, 'GET', `/calls?${new URLSearchParams({ ...query, limit: '200', offset: String(offset) })}`);
    ids.push(...page.calls.map((c) => c.call_id));
    if (page.calls.length === 0 || offset + 200 >= page.total) return [...new Set(ids)];
  }
}

/** Finished calls at the given real times (ms), stored as the simulation would have left them. */
export function plantCalls(sb: Sandbox, starts: number[], prefix = 'call_planted_'): string[] {
  const key = sb.world.keys.get(sb.apiKey)!;
  const org = sb.world.org(key.org);
  const index = sb.world.calls(org);
  return starts.map((start, i) => {
    const id = `${prefix}${i}`;
    const c: SandboxCall = {
      call_id: id, campaign_id: null, agent_id: null, agent_name: 'Planted', direction: 'outbound',
      phone_number: `+9199${String(10_000_000 + i).slice(-8)}`, status: 'completed', end_reason: 'completed', outcome: 'callback_requested',
      summary: 'Planted for a time filter.', error: null, duration_seconds: 30, start_time: new Date(start).toISOString(),
      end_time: new Date(start + 30_000).toISOString(), has_recording: false, contact: { name: `Planted ${i}`, extra: {} },
      _start: start, _seed: 1, _script: 'none', _ci: -1,
    };
    org.calls[id] = c;
    index.add(c);
    return id;
  });
}
