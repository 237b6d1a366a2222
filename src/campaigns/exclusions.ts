/**
 * Who a campaign leaves out before anything is sent: the numbers in --exclude files, the
 * profile's do-not-call file (unless --no-default-exclude), and numbers called within a
 * recent span (--exclude-called-within, from GET /calls?since=). Each contact left out is
 * counted against the first rule that matches it, and kept with its row and the list's
 * row, so `--dry-run --json` can say exactly why.
 */
import type { ApiClient } from '../api/client.js';
import { allCalls } from '../api/calls.js';
import type { Context } from '../context.js';
import { normalizeReadBack } from '../contacts/read-back.js';
import { readExcludeList } from './exclude-file.js';
import { grouped } from '../text/text.js';

/**
 * Who to leave out. A verb maps its flags onto it with every key written out, so a flag
 * renamed in the verb's spec fails to compile where it is read.
 */
export interface ExclusionChoice {
  /** Files of numbers (--exclude). */
  files: string[];
  /** Numbers with a call started this many milliseconds back (--exclude-called-within). */
  calledWithinMs: number | undefined;
  /** The profile's do_not_call_file applies (false with --no-default-exclude). */
  profileList: boolean;
}

export interface Candidate {
  row: number;
  phone_number: string;
  name?: string;
}

export interface Excluded {
  row: number;
  phone_number: string;
  name?: string;
  rule: string;
  file?: string;
  file_row?: number;
  call_id?: string;
  call_started?: string;
}

interface Hit {
  file_row?: number;
  call_id?: string;
  call_started?: string;
}

export interface Rule {
  /** How the summary names it: "do-not-call.csv (profile do_not_call_file)", "called within 7d". */
  label: string;
  file?: string;
  match(phone: string): Hit | undefined;
}

export interface RuleCount {
  rule: string;
  removed: number;
}

export interface ExclusionResult<T> {
  kept: T[];
  excluded: Excluded[];
  counts: RuleCount[];
}

export function spanText(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000]] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / 60_000)}m`;
}

export interface RuleOptions {
  defaultCountry?: string;
  /** For --exclude-called-within; asked for only when that flag is given. */
  api?: () => Promise<ApiClient>;
  /** redial: the calls of the campaign being redialed are why it is redialed, not a reason to leave anyone out. */
  ignoreCampaignId?: string;
}

/** Reads every list (files first: a bad file is exit 2 before any request). */
export async function buildRules(ctx: Context, choice: ExclusionChoice, options: RuleOptions): Promise<Rule[]> {
  const rules: Rule[] = [];
  const profileFile = !choice.profileList ? undefined : ctx.settings().profile.do_not_call_file;
  const files: Array<{ path: string; profile: boolean }> = [];
  if (profileFile) files.push({ path: profileFile, profile: true });
  for (const f of choice.files) files.push({ path: f, profile: false });
  for (const f of files) {
    const list = await readExcludeList(f.path, options.defaultCountry, ctx.signal);
    if (list.invalid.length > 0) {
      const first = list.invalid[0]!;
      ctx.warn(`${list.name}: ${grouped(list.invalid.length)} ${list.invalid.length === 1 ? 'entry is' : 'entries are'} not a valid phone number and can match no contact (row ${first.row}: "${first.value}" ${first.message}).`);
    }
    rules.push({
      label: f.profile ? `${list.name} (the profile's do_not_call_file)` : list.name,
      file: list.path,
      match: (phone) => {
        const row = list.numbers.get(phone);
        return row === undefined ? undefined : { file_row: row };
      },
    });
  }
  if (choice.calledWithinMs !== undefined) {
    const since = new Date(ctx.now().getTime() - choice.calledWithinMs);
    const api = await options.api!();
    const called = new Map<string, Hit>();
    // A service may return numbers as they were uploaded ("+91 98000 00004"): compare E.164.
    const { createPhoneCheck, resolveDefaultCountry } = await import('../contacts/index.js');
    const check = createPhoneCheck(resolveDefaultCountry(options.defaultCountry));
    for await (const call of allCalls(api, { since: since.toISOString() }, { signal: ctx.signal })) {
      if (!call.phone_number || (options.ignoreCampaignId && call.campaign_id === options.ignoreCampaignId)) continue;
      const normal = normalizeReadBack(check, call.phone_number);
      const phone = 'e164' in normal ? normal.e164 : String(call.phone_number);
      // Only the first call seen is kept: any one is reason enough.
      if (!called.has(phone)) called.set(phone, { call_id: call.call_id, call_started: call.start_time });
    }
    rules.push({ label: `called within ${spanText(choice.calledWithinMs)}`, match: (phone) => called.get(phone) });
  }
  return rules;
}

export function applyRules<T extends Candidate>(contacts: T[], rules: Rule[]): ExclusionResult<T> {
  const counts = rules.map((r) => ({ rule: r.label, removed: 0 }));
  if (rules.length === 0) return { kept: contacts, excluded: [], counts };
  const kept: T[] = [];
  const excluded: Excluded[] = [];
  for (const c of contacts) {
    let hit: Hit | undefined;
    let i = 0;
    for (; i < rules.length; i++) {
      hit = rules[i]!.match(c.phone_number);
      if (hit) break;
    }
    if (!hit) {
      kept.push(c);
      continue;
    }
    counts[i]!.removed++;
    const e: Excluded = { row: c.row, phone_number: c.phone_number, rule: rules[i]!.label, ...hit };
    if (c.name !== undefined) e.name = c.name;
    if (rules[i]!.file) e.file = rules[i]!.file;
    excluded.push(e);
  }
  return { kept, excluded, counts };
}

/** "Left out: 3 by do-not-call.csv (…), 1 called within 7d." on stderr; nothing when no rule is in force. */
export function summarizeExclusions(ctx: Context, counts: RuleCount[]): void {
  if (counts.length === 0) return;
  const parts = counts.map((c) => `${grouped(c.removed)} by ${c.rule}`);
  const total = counts.reduce((n, c) => n + c.removed, 0);
  ctx.info(`Excluded ${grouped(total)} ${total === 1 ? 'contact' : 'contacts'}: ${parts.join(', ')}.`);
}
