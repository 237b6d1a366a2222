/**
 * Starting and resuming a `campaign run`: the journal of a new run from its flags (every
 * local check first: a bad file or flag is exit 2 before any request), or an existing
 * journal checked against the account in use. Verbs call these and print.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { resolveAgent } from '../../api/agents.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { AuthError, FailureError, UsageError } from '../../errors.js';
import { sweepStaleTemps } from '../../util/atomic-file.js';
import { shellQuote } from '../../text/text.js';
import { applyRules, buildRules, summarizeExclusions, type ExclusionChoice } from '../exclusions.js';
import { callingWindow } from '../../hours/hours-gate.js';
import { readContactsInput, type ContactsSource, type InputContact } from '../input.js';
import { RUN_GOAL, settleContacts } from '../problems.js';
import { readCampaign, readContacts } from '../read.js';
import { agentHistory, type AgentHistory } from './history.js';
import { newGuardrails, type GuardrailInput } from './guardrails.js';
import { defaultJournalPath, JOURNAL_FORMAT, JOURNAL_VERSION, JOURNAL_VERSION_HELD, keyHash, newRunId, readJournal, type Journal, type RunContact } from './journal.js';
import {
  DEFAULT_RETRY_AFTER_MS, DEFAULT_WAVE_SIZE, parseDeadline, parseRetryOn, parseWindows, type RunPolicy,
} from './policy.js';
import { placeOf } from '../../hours/phone-zones.js';

/**
 * A new run as the user asked for it. `campaign run` builds it from its flags and a
 * --policy file with every key written out, so an option renamed in the verb's spec fails
 * to compile where it is read. Undefined: not given (the default applies).
 */
export interface RunPlan {
  name: string | undefined;
  /** Id or exact name. */
  agent: string | undefined;
  /** A spreadsheet or a JSON file of contacts. */
  contacts: ContactsSource;
  /** Instead, the contacts of a draft campaign. */
  fromCampaign: string | undefined;
  defaultCountry: string | undefined;
  campaignPrompt: string | undefined;
  kb: string[] | undefined;
  /** Windows as written: 09:00-21:00 for all, US=08:00-21:00 for one country. */
  callingHours: string[];
  waveSize: number | undefined;
  dailyCap: number | undefined;
  attempts: number | undefined;
  /** Milliseconds before another attempt. */
  retryAfter: number | undefined;
  retryOn: string[] | undefined;
  /** A date-time or a span from now (36h). */
  deadline: string | undefined;
  journal: string | undefined;
  dryRun: boolean;
  /** Leave invalid rows out (listed with their rows) instead of stopping (--skip-invalid). */
  skipInvalid: boolean;
  /** Every warning about the list is an error (--strict; the profile's strict also counts). */
  strict: boolean;
  exclusions: ExclusionChoice;
}

export interface NewRun {
  journal: Journal;
  path: string;
  history: AgentHistory;
}

/** The account in use, without a request: a journal of another one is refused before anything is sent. */
export function account(ctx: Context): { baseUrl: string; apiKey: string } | undefined {
  const s = ctx.settings();
  return s.baseUrl && s.apiKey ? { baseUrl: s.baseUrl, apiKey: s.apiKey } : undefined;
}

export async function openRun(ctx: Context, path: string): Promise<{ journal: Journal; api: ApiClient }> {
  const acc = account(ctx);
  if (!acc) {
    await ctx.api(); // throws the usual "no address" / "no key" error
    throw new AuthError('No API key is set.');
  }
  const journal = await readJournal(path, acc);
  // A run killed while writing its journal leaves the temporary file beside it.
  await sweepStaleTemps(dirname(resolve(ctx.cwd, path)));
  return { journal, api: await ctx.api() };
}

/**
 * On --resume: the exclude lists (the run's --exclude files and the profile's
 * do_not_call_file) are read again, and a waiting contact now on one is left out. Local
 * files only, so a missing list is exit 2 before any request.
 */
export async function reapplyExclusions(ctx: Context, journal: Journal): Promise<number> {
  const ex = journal.exclusions;
  const rules = await buildRules(ctx, { files: ex?.files ?? [], calledWithinMs: undefined, profileList: ex?.default_exclude ?? true }, { defaultCountry: ex?.default_country });
  if (rules.length === 0) return 0;
  const waiting = journal.contacts.map((c, i) => ({ row: i, phone_number: c.phone_number, state: c.state })).filter((c) => c.state === 'waiting');
  const { excluded } = applyRules(waiting, rules);
  for (const e of excluded) {
    const c = journal.contacts[e.row]!;
    c.state = 'excluded';
    c.rule = e.rule;
    delete c.next_at;
  }
  return excluded.length;
}

export async function prepareRun(ctx: Context, flags: RunPlan, spanMs: (v: string) => number | undefined, guard: GuardrailInput = {}): Promise<NewRun & { api: ApiClient }> {
  const name = flags.name?.trim();
  if (!name) throw new UsageError('--name is required: the waves are named "NAME (wave N, run ID)".');
  if (!flags.agent) throw new UsageError('--agent is required: the agent (id or exact name) that makes the calls.');
  const sources = [flags.contacts.csv, flags.contacts.json, flags.fromCampaign].filter((s) => s !== undefined).length;
  if (sources !== 1) throw new UsageError('Say where the contacts are, once: --csv FILE, --contacts FILE.json or --from-campaign ID.');
  const now = ctx.now().getTime();
  const policy: RunPolicy = {
    windows: parseWindows(flags.callingHours, callingWindow(ctx, undefined)),
    wave_size: flags.waveSize ?? DEFAULT_WAVE_SIZE,
    attempts: flags.attempts ?? 1,
    retry_after_ms: flags.retryAfter ?? DEFAULT_RETRY_AFTER_MS,
    retry_on: parseRetryOn(flags.retryOn),
    wave_length_ms: 0,
  };
  if (policy.wave_size > 10_000) throw new UsageError('--wave-size is at most 10,000: a wave is one campaign, and a campaign holds at most 10,000 contacts.');
  if (flags.dailyCap !== undefined) {
    policy.daily_cap = flags.dailyCap;
    policy.day_zone = ctx.timeZone;
  }
  if (flags.deadline !== undefined) policy.deadline = parseDeadline(flags.deadline, now, spanMs, ctx.timeZone);
  if ((flags.retryAfter !== undefined || flags.retryOn !== undefined) && policy.attempts < 2) {
    throw new UsageError('--retry-after and --retry-on (retry_after and retry_on in a --policy file) shape retries: pass --attempts 2 or more as well (attempts: in the file).');
  }
  const path = flags.journal ?? defaultJournalPath(flags.contacts.csv ?? flags.contacts.json, flags.fromCampaign);
  if (!flags.dryRun) refuseExisting(path);
  const defaultCountry = flags.defaultCountry ?? ctx.settings().defaultCountry;

  let contacts: InputContact[];
  let source: Journal['source'];
  if (flags.fromCampaign === undefined) {
    const input = await readContactsInput(flags.contacts, defaultCountry, ctx.signal);
    // As `campaign create` does: invalid rows stop the run (or are left out with --skip-invalid), and --strict makes any warning an error.
    await settleContacts(ctx, input, { skipInvalid: flags.skipInvalid, keepDuplicates: flags.contacts.keepDuplicates, strict: flags.strict || ctx.settings().strict, goal: RUN_GOAL });
    contacts = input.contacts;
    source = { kind: input.kind, path: input.path };
  } else {
    contacts = [];
    source = { kind: 'campaign', campaign_id: flags.fromCampaign };
  }
  const rules = await buildRules(ctx, flags.exclusions, { defaultCountry, api: () => ctx.api() });
  const api = await ctx.api();
  if (flags.fromCampaign !== undefined) contacts = await draftContacts(api, flags.fromCampaign, ctx.signal);
  const { kept, excluded, counts } = applyRules(contacts, rules);
  summarizeExclusions(ctx, counts);
  if (kept.length === 0) throw new UsageError('Every contact is excluded, so there is nothing to dial.');

  const agent = await resolveAgent(api, flags.agent);
  const history = await agentHistory(api, agent.id, now, ctx.signal);
  policy.wave_length_ms = history.wave_length_ms;

  const runContacts: RunContact[] = [];
  const excludedByRow = new Map(excluded.map((e) => [e.row, e.rule]));
  for (const c of contacts) {
    const rule = excludedByRow.get(c.row);
    const rc: RunContact = { row: c.row, phone_number: c.phone_number, state: 'waiting', attempts: 0, waves: [] };
    if (c.name !== undefined) rc.name = c.name;
    if (c.extra !== undefined) rc.extra = c.extra;
    if (rule !== undefined) {
      rc.state = 'excluded';
      rc.rule = rule;
    } else if (placeOf(c.phone_number).zones.length === 0) {
      rc.state = 'no_zone';
    }
    runContacts.push(rc);
  }
  const journal = newJournal(ctx, {
    name, agent, source, policy, contacts: runContacts, now,
    ...(flags.campaignPrompt !== undefined ? { campaignPrompt: flags.campaignPrompt } : {}),
    ...(flags.kb !== undefined ? { kbItemIds: flags.kb } : {}),
    exclusions: runExclusions(ctx, flags.exclusions, defaultCountry),
  });
  journal.guardrails = newGuardrails(guard, history);
  return { journal, path, history, api };
}

/** The exclude lists a run reads again on every --resume: the files (absolute), the profile's list, the default country. */
export function runExclusions(ctx: Context, choice: ExclusionChoice, defaultCountry: string | undefined): NonNullable<Journal['exclusions']> {
  return {
    files: choice.files.map((f) => resolve(ctx.cwd, f)),
    default_exclude: choice.profileList,
    ...(defaultCountry ? { default_country: defaultCountry } : {}),
  };
}

/** A new run never writes over a journal: that run may still be going, or be resumed. */
export function refuseExisting(path: string): void {
  if (!existsSync(path)) return;
  throw new UsageError(`A run journal already exists at ${path}.`, {
    hint: `Continue that run with: voicectl campaign run --resume ${shellQuote(path)}. For a new run, pass --journal with another file.`,
  });
}

export interface JournalParts {
  name: string;
  agent: { id: string; name?: string };
  campaignPrompt?: string;
  kbItemIds?: string[];
  source: Journal['source'];
  policy: RunPolicy;
  exclusions: NonNullable<Journal['exclusions']>;
  contacts: RunContact[];
  now: number;
}

/** A new run's journal, for the account in use; version 2 when a contact is held until a time it asked for. */
export function newJournal(ctx: Context, p: JournalParts): Journal {
  const acc = account(ctx);
  if (!acc) throw new AuthError('No API key is set.');
  const iso = new Date(p.now).toISOString();
  return {
    format: JOURNAL_FORMAT,
    version: p.contacts.some((c) => c.not_before !== undefined) ? JOURNAL_VERSION_HELD : JOURNAL_VERSION,
    run_id: newRunId(),
    account: { base_url: acc.baseUrl, key_sha256: keyHash(acc.apiKey) },
    name: p.name,
    agent_id: p.agent.id,
    ...(p.agent.name ? { agent_name: p.agent.name } : {}),
    ...(p.campaignPrompt !== undefined ? { campaign_prompt: p.campaignPrompt } : {}),
    ...(p.kbItemIds !== undefined ? { kb_item_ids: p.kbItemIds } : {}),
    source: p.source,
    policy: p.policy,
    exclusions: p.exclusions,
    state: 'running',
    created_at: iso,
    updated_at: iso,
    days: {},
    waves: [],
    contacts: p.contacts,
  };
}

/** --from-campaign: the contacts of a draft, which itself is never launched. */
async function draftContacts(api: ApiClient, id: string, signal: AbortSignal): Promise<InputContact[]> {
  const campaign = await readCampaign(api, id, signal);
  if (campaign.status !== undefined && campaign.status !== 'draft') {
    throw new FailureError(`Campaign ${id} is ${campaign.status}, not a draft: its contacts have been dialed.`, {
      hint: `To call its unanswered contacts again: voicectl campaign redial ${id}.`,
    });
  }
  const list = await readContacts(api, id, signal);
  return list.map((c, i) => {
    const out: InputContact = { row: i + 1, phone_number: c.phone_number };
    if (c.name !== undefined) out.name = c.name;
    if (c.extra !== undefined) out.extra = c.extra;
    return out;
  });
}

/**
 * The command that continues this run: the journal, and the same service, profile and
 * zone (--tz: the times it shows; never the key). The list is not read again: the
 * journal holds the contacts as this run read them.
 */
export function resumeCommand(ctx: Context, path: string): string {
  const args = ['voicectl', 'campaign', 'run', '--resume', path];
  if (ctx.opts.baseUrl) args.push('--base-url', ctx.opts.baseUrl);
  if (ctx.opts.profile) args.push('--profile', ctx.opts.profile);
  if (ctx.opts.tz) args.push('--tz', ctx.opts.tz);
  return args.map(shellQuote).join(' ');
}
