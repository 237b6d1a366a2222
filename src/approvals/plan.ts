/**
 * A launch plan: what a launch would dial, with which agent, and where the contacts stand
 * against calling hours. Its hash binds an approval to exactly this list and this agent:
 * a contact added, removed or edited, or an agent edited, makes another hash, and the
 * approval given for the old one no longer applies.
 */
import { createHash } from 'node:crypto';
import type { ApiClient } from '../api/client.js';
import { resolveAgent, type Agent } from '../api/agents.js';
import type { Context } from '../context.js';
import { checkCallingHours, formatWindow } from '../hours/calling-hours.js';
import { callingWindow, checkHoursChoice } from '../hours/hours-gate.js';
import { notDraft } from '../campaigns/launch-flow.js';
import { readCampaign, readContacts } from '../campaigns/read.js';
import { FailureError } from '../errors.js';
import { grouped, plural, oneLine } from '../text/text.js';
import { formatDateTime, zoneAbbreviation } from '../util/time.js';

export interface LaunchOptions {
  calling_hours?: string;
  ignore_calling_hours?: boolean;
}

/** The part of a plan the hash covers. */
export interface LaunchPlan {
  campaign: { id: string; name?: string };
  /** The agent as the service describes it, without its timestamps. */
  agent: Record<string, unknown> | null;
  /** The pending contacts the launch dials, by phone number. */
  contacts: Array<{ phone_number: string; name?: string; extra?: unknown }>;
  options: LaunchOptions;
}

/** Where the contacts stand against calling hours when the plan was made (not hashed: it changes with the clock). */
export interface HoursFindings {
  checked: boolean;
  window?: string;
  total: number;
  inside: number;
  unknown: number;
  outside: Array<{ zones: string[]; count: number; opens_at?: string }>;
  opens_for_all?: string;
}

export interface PlanRecord {
  hash: string;
  plan: LaunchPlan;
  findings: HoursFindings;
  created_at: string;
}

/** Reads the campaign, its contacts and its agent, and makes the plan a launch of it would follow. */
export async function makeLaunchPlan(ctx: Context, api: ApiClient, id: string, options: LaunchOptions): Promise<PlanRecord> {
  checkHoursChoice(ctx, { window: options.calling_hours, ignore: Boolean(options.ignore_calling_hours), wait: false });
  const campaign = await readCampaign(api, id, ctx.signal);
  if (campaign.status && campaign.status !== 'draft') throw notDraft(id, campaign.name, campaign.status);
  const contacts = (await readContacts(api, id, ctx.signal))
    .filter((c) => c.status === undefined || c.status === 'pending')
    .map((c) => ({ phone_number: c.phone_number, ...(c.name !== undefined ? { name: c.name } : {}), ...(c.extra !== undefined ? { extra: c.extra } : {}) }))
    .sort((a, b) => (a.phone_number < b.phone_number ? -1 : a.phone_number > b.phone_number ? 1 : 0));
  let agent: Agent | null = null;
  if (campaign.agent_id) {
    try {
      agent = await resolveAgent(api, campaign.agent_id);
    } catch (err) {
      throw new FailureError(`Cannot read agent ${campaign.agent_id} of campaign ${id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const plan: LaunchPlan = {
    campaign: { id, ...(campaign.name !== undefined ? { name: campaign.name } : {}) },
    agent: agent ? withoutTimestamps(agent) : null,
    contacts,
    options: { ...(options.calling_hours ? { calling_hours: options.calling_hours } : {}), ignore_calling_hours: Boolean(options.ignore_calling_hours) },
  };
  const now = ctx.now().getTime();
  let findings: HoursFindings = { checked: false, total: contacts.length, inside: 0, unknown: 0, outside: [] };
  if (!options.ignore_calling_hours) {
    const window = callingWindow(ctx, options.calling_hours);
    const check = checkCallingHours(contacts.map((c) => c.phone_number), window, now);
    findings = {
      checked: true,
      window: formatWindow(window),
      total: check.total,
      inside: check.inside,
      unknown: check.unknown,
      outside: check.outside.map((g) => ({ zones: g.zones, count: g.count, ...(g.opensAt !== undefined ? { opens_at: new Date(g.opensAt).toISOString() } : {}) })),
      ...(check.opensForAll !== undefined ? { opens_for_all: new Date(check.opensForAll).toISOString() } : {}),
    };
  }
  return { hash: planHash(plan), plan, findings, created_at: new Date(now).toISOString() };
}

/** 32 hex digits of SHA-256 over the plan's canonical JSON (keys sorted). */
export function planHash(plan: LaunchPlan): string {
  return createHash('sha256').update(canonical(plan)).digest('hex').slice(0, 32);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** created_at, updated_at …: when the agent was touched says nothing of what it will say. */
function withoutTimestamps(agent: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(agent).filter(([k]) => !k.endsWith('_at')));
}

/** A time of the plan (ISO 8601) as the person who approves it reads it: in `zone`, named. */
function planTime(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${formatDateTime(ms, zone, { minutes: true })} ${zoneAbbreviation(zone, ms)}`;
}

/** The plan in a few lines, for the person who approves it; times in `zone` (the user's), named. */
export function describePlan(record: PlanRecord, zone = 'UTC', shown = 20): string[] {
  const { plan, findings } = record;
  const lines: string[] = [];
  lines.push(`Campaign: ${plan.campaign.name ? `"${plan.campaign.name}" (${plan.campaign.id})` : plan.campaign.id}`);
  const a = plan.agent;
  if (a) {
    lines.push(`Agent:    ${String(a.name ?? '')} (${String(a.id ?? '')})${a.voice_name ? `, voice ${String(a.voice_name)}` : ''}${a.language ? `, ${String(a.language)}` : ''}`);
    if (a.greeting) lines.push(`  greeting: ${oneLine(String(a.greeting), 160)}`);
    if (a.call_purpose) lines.push(`  purpose:  ${oneLine(String(a.call_purpose), 160)}`);
    if (a.prompt) lines.push(`  prompt:   ${oneLine(String(a.prompt), 300)}`);
  } else {
    lines.push('Agent:    none (the campaign has no agent)');
  }
  lines.push(`Dials:    ${plural(plan.contacts.length, 'contact')}`);
  for (const c of plan.contacts.slice(0, shown)) lines.push(`  ${c.phone_number}${c.name ? `  ${oneLine(c.name, 60)}` : ''}`);
  if (plan.contacts.length > shown) lines.push(`  … and ${grouped(plan.contacts.length - shown)} more`);
  if (!findings.checked) lines.push('Calling hours: not checked (ignore_calling_hours).');
  else {
    const outside = findings.outside.reduce((n, g) => n + g.count, 0);
    lines.push(`Calling hours ${findings.window}: ${findings.inside} inside, ${outside} outside, ${findings.unknown} of unknown zone (as of ${planTime(record.created_at, zone)}).`);
    for (const g of findings.outside) lines.push(`  ${g.count} in ${g.zones.join(', ')}${g.opens_at ? `, opens ${planTime(g.opens_at, zone)}` : ''}`);
  }
  lines.push(`Plan hash: ${record.hash}`);
  return lines;
}

