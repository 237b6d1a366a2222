/**
 * `calls pin`: each call, transcript included, written as a fixture that `calls check
 * --from-file` reads, with the agent's language beside it (the language rule needs it
 * offline). --redact replaces the contact's name, the phone number and every `extra`
 * value by placeholders that stay the same from one pin to the next on this machine
 * (keyed by a secret kept in the config folder), in the transcript and summary too.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { getCall, type Call } from '../api/calls.js';
import { allAgents } from '../api/agents.js';
import { configDir } from '../config/profiles.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { limiter } from '../export/limiter.js';

export interface Pinned {
  call_id: string;
  file: string;
}

export async function pinCalls(ctx: Context, ids: string[], dir: string, options: { redact?: boolean }): Promise<Pinned[]> {
  for (const id of ids) {
    if (!/^[\w.-]+$/.test(id)) throw new UsageError(`"${id}" is not a call id voicectl can name a file after.`);
  }
  const api = await ctx.api();
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new UsageError(`--to ${dir}: ${(err as Error).message}`);
  }
  const key = options.redact ? await redactionKey(ctx) : undefined;
  const limit = limiter(8);
  const calls = await Promise.all(ids.map((id) => limit(async () => (await getCall(api, id, ctx.signal)).raw as Call)));
  const languages = await agentLanguages(api, calls);
  const pinned: Pinned[] = [];
  for (const call of calls) {
    const language = call.agent_id ? languages.get(call.agent_id) : undefined;
    const fixture: Call = { ...(key ? redact(call, key) : call), voicectl: { pinned: true, ...(language ? { agent_language: language } : {}), ...(key ? { redacted: true } : {}) } };
    const file = join(dir, `${call.call_id}.json`);
    await writeFileAtomic(file, `${JSON.stringify(fixture, null, 2)}\n`);
    pinned.push({ call_id: call.call_id, file });
  }
  return pinned;
}

async function agentLanguages(api: ApiClient, calls: Call[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!calls.some((c) => c.agent_id)) return out;
  for await (const a of allAgents(api)) if (a.id && typeof a.language === 'string') out.set(a.id, a.language);
  return out;
}

async function redactionKey(ctx: Context): Promise<Buffer> {
  const path = join(configDir(ctx.env), 'redaction-key');
  try {
    return Buffer.from((await readFile(path, 'utf8')).trim(), 'hex');
  } catch {
    const key = randomBytes(32);
    await mkdir(configDir(ctx.env), { recursive: true });
    await writeFile(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' }).catch(() => {});
    return Buffer.from((await readFile(path, 'utf8')).trim(), 'hex');
  }
}

function tag(key: Buffer, kind: string, value: string): string {
  return createHmac('sha256', key).update(`${kind}\u0000${value}`).digest('hex').slice(0, 8);
}

/** The same digits count, the country code (and a North American area code) kept, for the calling-hours rule. */
function fakeNumber(key: Buffer, phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const keep = digits.startsWith('1') ? 4 : digits.startsWith('91') || digits.startsWith('44') ? 2 : Math.min(3, digits.length);
  const h = createHmac('sha256', key).update(`phone\u0000${phone}`).digest();
  let rest = '';
  for (let i = 0; rest.length < digits.length - keep; i++) rest += String(h[i % h.length]! % 10);
  return `+${digits.slice(0, keep)}${rest}`;
}

export function redact(call: Call, key: Buffer): Call {
  const swaps: Array<[string, string]> = [];
  const out: Call = JSON.parse(JSON.stringify(call)) as Call;
  const name = call.contact?.name?.trim();
  if (name) {
    const placeholder = `Contact-${tag(key, 'name', name)}`;
    swaps.push([name, placeholder]);
    for (const part of name.split(/\s+/)) if (part.length > 2) swaps.push([part, placeholder]);
    out.contact = { ...out.contact, name: placeholder };
  }
  if (call.phone_number) {
    const fake = fakeNumber(key, call.phone_number);
    swaps.push([call.phone_number, fake], [call.phone_number.replace(/^\+/, ''), fake.replace(/^\+/, '')]);
    out.phone_number = fake;
  }
  if (out.contact && out.contact.extra !== undefined) out.contact.extra = redactValue(out.contact.extra, key, swaps);
  // Longest first, whole words only: "Asha" must not turn "Ashaan" into a placeholder's half.
  const patterns = swaps.sort((a, b) => b[0].length - a[0].length)
    .map(([from, to]) => [new RegExp(`(?<![\\p{L}\\p{N}])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'gu'), to] as const);
  const apply = (text: string) => patterns.reduce((t, [re, to]) => t.replace(re, to), text);
  if (typeof out.summary === 'string') out.summary = apply(out.summary);
  if (Array.isArray(out.transcript)) out.transcript = out.transcript.map((t) => (typeof t.text === 'string' ? { ...t, text: apply(t.text) } : t));
  return out;
}

function redactValue(v: unknown, key: Buffer, swaps: Array<[string, string]>): unknown {
  if (Array.isArray(v)) return v.map((x) => redactValue(x, key, swaps));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactValue(x, key, swaps)]));
  if (v === null || typeof v === 'boolean') return v;
  const s = String(v);
  const placeholder = `redacted-${tag(key, 'extra', s)}`;
  if (s.length > 2) swaps.push([s, placeholder]);
  return placeholder;
}
