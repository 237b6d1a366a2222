/**
 * `calls check`: which calls (campaigns, a span of start times, ids, or a file of calls
 * read offline), each read with its transcript (single-call reads, a bounded number in
 * flight, GETs retried by the client), every rule applied, and what failed kept with
 * the turns around it. Only verdicts and failures are kept, never the calls themselves,
 * so ten thousand calls fit in little memory.
 */
import { readdir, stat } from 'node:fs/promises';
import { readUserTextOr } from '../util/user-file.js';
import { join, resolve } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { allCalls, getCall, type Call, type TranscriptTurn } from '../api/calls.js';
import { allAgents } from '../api/agents.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { callingWindow } from '../hours/hours-gate.js';
import { readExcludeList, type ExcludeList } from '../campaigns/exclude-file.js';
import { evaluate, type Environment, type Verdict } from './evaluate.js';
import type { Rule, Severity } from './rules.js';
import { harvestOptOuts } from './harvest.js';
import { runJudge } from './judge.js';
import { isObject } from '../util/is-object.js';

export interface CallSource {
  campaigns?: string[];
  since?: string;
  until?: string;
  calls?: string[];
  fromFile?: string;
}

export interface CheckOptions {
  rules: Rule[];
  /** Relative paths in the rules (exclude files, judge commands) are read from here. */
  rulesDir: string;
  source: CallSource;
  sample?: number;
  seed?: string;
  harvestDnc?: string;
  concurrency: number;
}

export interface RuleSummary {
  id: string;
  kind: string;
  severity: Severity;
  pass: number;
  fail: number;
  skip: number;
}

export interface ContextTurn {
  index: number;
  role: string;
  text: string;
  offending: boolean;
}

export interface Failure extends Verdict {
  severity: Severity;
  phone_number?: string;
  context: ContextTurn[];
}

export interface CheckResult {
  calls: number;
  /** Calls still in progress when listed: not checked. */
  inProgress: number;
  rules: RuleSummary[];
  verdicts: Verdict[];
  failures: Failure[];
  errorFailures: number;
  harvested?: { file: string; added: number; total: number };
}

/** Checks before any request: readable lists, known sources. */
export async function prepareEnvironment(ctx: Context, options: Pick<CheckOptions, 'rules' | 'rulesDir'>, api: () => Promise<ApiClient | undefined>, optedOut: (call: Call) => void): Promise<Environment> {
  const lists = new Map<string, ExcludeList[]>();
  const defaultCountry = ctx.settings().defaultCountry;
  const profileFile = ctx.settings().profile.do_not_call_file;
  for (const rule of options.rules) {
    if (rule.kind !== 'not_suppressed') continue;
    const files = rule.exclude.map((f) => resolve(options.rulesDir, f));
    if (rule.profile && profileFile) files.unshift(profileFile);
    if (files.length === 0) {
      throw new UsageError(`Rule "${rule.id}" (not_suppressed) has no list to check: no exclude files, and the profile has no do_not_call_file.`, {
        hint: 'Add exclude: [dnc.csv] to the rule, or set one: voicectl config set do_not_call_file FILE.',
      });
    }
    lists.set(rule.id, await Promise.all(files.map((f) => readExcludeList(f, defaultCountry, ctx.signal))));
  }
  const hasLanguage = options.rules.some((r) => r.kind === 'language' && !r.language);
  let languages: Promise<Map<string, string>> | undefined;
  const agentLanguages = async (): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    const client = await api();
    if (!client) return out;
    for await (const a of allAgents(client)) if (a.id && typeof a.language === 'string') out.set(a.id, a.language);
    return out;
  };
  return {
    window: callingWindow(ctx, undefined),
    async language(call) {
      const pinned = pinnedLanguage(call);
      if (pinned) return pinned;
      if (!hasLanguage || !call.agent_id) return undefined;
      languages ??= agentLanguages();
      return (await languages).get(call.agent_id);
    },
    suppressed(ruleId, phone) {
      for (const list of lists.get(ruleId) ?? []) {
        const row = list.numbers.get(phone);
        if (row !== undefined) return `${list.name} (row ${row})`;
      }
      return undefined;
    },
    judge: (rule, call, run) => runJudge(ctx, rule, call, run, options.rulesDir),
    optedOut,
  };
}

/** The agent's language as `calls pin` wrote it beside the call. */
function pinnedLanguage(call: Call): string | undefined {
  const meta = call.voicectl;
  if (isObject(meta) && typeof meta.agent_language === 'string') return meta.agent_language;
  return undefined;
}

export async function runCheck(ctx: Context, options: CheckOptions): Promise<CheckResult> {
  if (options.harvestDnc && !options.rules.some((r) => r.kind === 'opt_out_honoured')) {
    throw new UsageError('--harvest-dnc collects the numbers an opt_out_honoured rule finds, and the rules have none.', {
      hint: 'Add one, for example: {id: opt-out, kind: opt_out_honoured, pattern: "don\'t call|do not call", outcomes: [do_not_call]}',
    });
  }
  const opted = new Set<string>();
  const offline = options.source.fromFile !== undefined;
  let client: ApiClient | undefined;
  const api = async () => (offline ? undefined : (client ??= await ctx.api()));
  const env = await prepareEnvironment(ctx, options, api, (call) => {
    if (call.phone_number) opted.add(call.phone_number);
  });
  const checker = new Checker(options.rules, env);
  const result = checker.result;
  if (offline) {
    const calls = sample(await readCallsFile(options.source.fromFile!), options);
    for (let i = 0; i < calls.length; i++) {
      if (inProgress(calls[i]!)) {
        result.inProgress++;
        continue;
      }
      result.calls++;
      await checker.check(calls[i]!, i);
    }
  } else {
    const c = (await api())!;
    const ids = sample(await listIds(ctx, c, options.source, result), options);
    // A few workers taking the next id in turn: no promise per call is made up front.
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const i = next++;
        const { call } = await getCall(c, ids[i]!, ctx.signal);
        if (inProgress(call)) {
          result.inProgress++;
          continue;
        }
        result.calls++;
        await checker.check(call, i);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, ids.length) }, worker));
  }
  checker.finish();
  if (options.harvestDnc) result.harvested = await harvestOptOuts(options.harvestDnc, [...opted], ctx.settings().defaultCountry);
  return result;
}

/** Applies rules call by call and keeps the tally, the verdicts and the failures in context. */
export class Checker {
  readonly result: CheckResult;
  private readonly summaries: Map<string, RuleSummary>;
  private readonly slots: Verdict[][] = [];

  constructor(private readonly rules: Rule[], private readonly env: Environment) {
    this.summaries = new Map(rules.map((r) => [r.id, { id: r.id, kind: r.kind, severity: r.severity, pass: 0, fail: 0, skip: 0 }]));
    this.result = { calls: 0, inProgress: 0, rules: [...this.summaries.values()], verdicts: [], failures: [], errorFailures: 0 };
  }

  /** `at` is the call's place in the list: verdicts come out in that order whatever order the reads finish in. */
  async check(call: Call, at: number, rules: Rule[] = this.rules): Promise<void> {
    const verdicts: Verdict[] = [];
    for (const rule of rules) {
      const v = await evaluate(rule, call, this.env);
      verdicts.push(v);
      this.summaries.get(rule.id)![v.verdict]++;
      if (v.verdict === 'fail') {
        const f: Failure = { ...v, severity: rule.severity, context: contextOf(call.transcript, v.turn) };
        if (call.phone_number) f.phone_number = call.phone_number;
        this.result.failures.push(f);
        if (rule.severity === 'error') this.result.errorFailures++;
      }
    }
    this.slots[at] = verdicts;
  }

  finish(): CheckResult {
    const r = this.result;
    r.verdicts = this.slots.flat();
    const order = new Map(r.verdicts.map((v, i) => [`${v.call_id}\u0000${v.rule}`, i]));
    r.failures.sort((a, b) => order.get(`${a.call_id}\u0000${a.rule}`)! - order.get(`${b.call_id}\u0000${b.rule}`)!);
    return r;
  }
}

export function inProgress(call: Pick<Call, 'status' | 'end_time'>): boolean {
  return call.status === 'initiated' || call.status === 'in_progress' || call.status === 'ringing';
}

/** The calls to read, in listed order, each once. */
async function listIds(ctx: Context, api: ApiClient, source: CallSource, result: CheckResult): Promise<string[]> {
  const seen = new Set<string>();
  const ids: string[] = [];
  const add = (id: string) => {
    if (!seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  };
  for (const id of source.calls ?? []) add(id);
  const lists: Array<Record<string, string>> = [];
  for (const campaign of source.campaigns ?? []) lists.push({ campaign_id: campaign });
  if (source.since !== undefined) lists.push({ since: source.since, ...(source.until ? { until: source.until } : {}) });
  for (const filters of lists) {
    for await (const call of allCalls(api, filters, { signal: ctx.signal })) {
      if (inProgress(call)) {
        result.inProgress++;
        continue;
      }
      add(call.call_id);
    }
  }
  return ids;
}

/** A reproducible sample: the N calls whose hash with the seed is lowest, in their listed order. */
function sample<T extends string | Call>(items: T[], options: Pick<CheckOptions, 'sample' | 'seed'>): T[] {
  if (options.sample === undefined || items.length <= options.sample) return items;
  const seed = options.seed ?? '0';
  const keyed = items.map((item, i) => ({ i, h: hash(`${seed}:${typeof item === 'string' ? item : item.call_id}`) }));
  const chosen = new Set(keyed.sort((a, b) => a.h - b.h || a.i - b.i).slice(0, options.sample).map((k) => k.i));
  return items.filter((_, i) => chosen.has(i));
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function contextOf(transcript: TranscriptTurn[] | undefined, turn: number | undefined): ContextTurn[] {
  if (turn === undefined || !Array.isArray(transcript)) return [];
  const out: ContextTurn[] = [];
  for (let i = Math.max(0, turn - 1); i <= Math.min(transcript.length - 1, turn + 1); i++) {
    const t = transcript[i]!;
    out.push({ index: i, role: String(t.role ?? ''), text: String(t.text ?? '').slice(0, 240), offending: i === turn });
  }
  return out;
}

/**
 * Calls read offline: a folder of `calls pin` fixtures (one .json each), a JSON lines
 * file (`call export --format jsonl --transcripts`), or a JSON file of one call or a list.
 */
async function readCallsFile(path: string): Promise<Call[]> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new UsageError(`--from-file ${path}: no such file or folder.`);
  }
  if (info.isDirectory()) {
    const names = (await readdir(path)).filter((n) => n.endsWith('.json')).sort();
    if (names.length === 0) throw new UsageError(`--from-file ${path}: the folder holds no .json call fixtures.`, { hint: 'Write some with: voicectl calls pin CALL_ID --to DIR' });
    const calls: Call[] = [];
    for (const n of names) {
      const text = await readUserTextOr(join(path, n), {}, (reason) => new UsageError(`--from-file ${join(path, n)}: ${reason}.`));
      calls.push(...asCalls(parseJson(text, join(path, n)), join(path, n)));
    }
    return calls;
  }
  const text = (await readUserTextOr(path, {}, (reason) => new UsageError(`--from-file ${path}: ${reason}.`))).replace(/^\uFEFF/, '');
  if (/^\s*\[/.test(text) || (/^\s*\{/.test(text) && !path.endsWith('.jsonl') && !path.endsWith('.ndjson'))) {
    try {
      return asCalls(JSON.parse(text), path);
    } catch (err) {
      if (err instanceof UsageError || path.endsWith('.json')) throw err instanceof UsageError ? err : new UsageError(`${path}: not valid JSON (${(err as Error).message}).`);
    }
  }
  const calls: Call[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    calls.push(...asCalls(parseJson(line, `${path}:${i + 1}`), `${path}:${i + 1}`));
  });
  return calls;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${where}: not valid JSON (${(err as Error).message}).`);
  }
}

function asCalls(value: unknown, where: string): Call[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((c) => {
    if (!c || typeof c !== 'object' || typeof (c as Call).call_id !== 'string') throw new UsageError(`${where}: not a call (an object with a call_id).`);
    return c as Call;
  });
}
