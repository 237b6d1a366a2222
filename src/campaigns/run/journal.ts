/**
 * The journal of a `campaign run`: the run's whole state in one JSON file, replaced
 * atomically (written under a temporary name, renamed into place) before every create
 * and every launch. A wave marked `creating` or `launching` says the request was sent and
 * its answer not recorded, as apply's lock file marks a pending create: a run killed at
 * that moment finds out from the service what happened instead of sending it again.
 * The format is documented in docs/campaign-run.md.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { parseWindow } from '../../hours/calling-hours.js';
import type { RunPolicy } from './policy.js';
import type { BreakerSettings, BreakerState, Trip } from './breaker.js';
import type { RateCard, Spend } from '../../reports/rate-card.js';

export const JOURNAL_FORMAT = 'voicectl-campaign-run';
/**
 * Version 1: a run of a list. Version 2 adds a contact's not_before (a callback's
 * requested time), written only by journals that hold one: a voicectl that knows only
 * version 1 refuses it instead of calling someone before the time they asked for.
 */
export const JOURNAL_VERSION = 1;
export const JOURNAL_VERSION_HELD = 2;
const READABLE_VERSIONS: unknown[] = [JOURNAL_VERSION, JOURNAL_VERSION_HELD];

export type ContactState =
  /** May be dialed once its window is open and `next_at` has passed. */
  | 'waiting'
  /** Held by a wave that is being created, launched or is running. */
  | 'in_wave'
  /** Finished: connected, out of attempts, or an outcome never redialed. */
  | 'done'
  /** Left out by an exclude rule before the run started. */
  | 'excluded'
  /** Not dialed (or not redialed) before the deadline. */
  | 'expired'
  /** Its local time cannot be told from the number: never dialed. */
  | 'no_zone';

export interface RunContact {
  row: number;
  phone_number: string;
  name?: string;
  extra?: unknown;
  state: ContactState;
  attempts: number;
  /** Numbers of the waves that held it. */
  waves: number[];
  /** The contact's status when its last wave finished (completed, no_answer, failed). */
  last_status?: string;
  last_outcome?: string;
  call_id?: string;
  /** Earliest time of its next attempt (ISO), for a retry. */
  next_at?: string;
  /**
   * Never dialed before this time (ISO): the time a callback asked to be called
   * (`campaign redial --at-requested-time`). Journals holding it are version 2.
   */
  not_before?: string;
  /** How the customer said it ("tomorrow at 4 pm"), with not_before. */
  requested_as?: string;
  /** The contact's own zone (IANA), for its calling window, when it is not the number's. */
  zone?: string;
  /** Why it was excluded. */
  rule?: string;
}

export type WaveState =
  /** POST /campaigns/json sent (or about to be); its answer not recorded. */
  | 'creating'
  /** A draft exists: nothing dialed. */
  | 'created'
  /** POST /campaigns/{id}/launch sent (or about to be); its answer not recorded. */
  | 'launching'
  /** Dialing on the service. */
  | 'launched'
  /** Every contact called; results recorded. */
  | 'done'
  /** A draft never launched (its window closed before a resume); its contacts went back to waiting. */
  | 'abandoned';

export interface Wave {
  n: number;
  name: string;
  state: WaveState;
  /** Indexes into `contacts`. */
  contacts: number[];
  campaign_id?: string;
  created_at?: string;
  launched_at?: string;
  done_at?: string;
  /** When the pending create or launch was sent (ISO), and the request's deadline then (ms): on resume, the run waits until it could no longer land. */
  sent_at?: string;
  timeout_ms?: number;
  /**
   * A create whose answer was lost, on a service that does not list campaigns: a draft of
   * this name may exist. It is never launched; the contacts went to another wave.
   */
  orphan?: boolean;
}

export interface Journal {
  format: typeof JOURNAL_FORMAT;
  version: typeof JOURNAL_VERSION | typeof JOURNAL_VERSION_HELD;
  run_id: string;
  /** The service and key the run's campaigns belong to (the key as a hash prefix). */
  account: { base_url: string; key_sha256: string };
  name: string;
  agent_id: string;
  agent_name?: string;
  campaign_prompt?: string;
  kb_item_ids?: string[];
  /** `callbacks`: the callbacks of a finished campaign, each held until its requested time. */
  source: { kind: 'csv' | 'json' | 'campaign' | 'callbacks'; path?: string; campaign_id?: string };
  policy: RunPolicy;
  /** The exclude lists, read again on every --resume: a number added since is not dialed. */
  exclusions?: { files: string[]; default_exclude: boolean; default_country?: string };
  state: 'running' | 'paused' | 'finished';
  /** Why the run paused, when it did. */
  paused_reason?: string;
  created_at: string;
  updated_at: string;
  /** Contacts dialed per day (YYYY-MM-DD) in the policy's day_zone. */
  days: Record<string, number>;
  waves: Wave[];
  contacts: RunContact[];
  /** The answer-rate breaker and the spend (guardrails.ts); absent in journals from before them. */
  guardrails?: Guardrails;
}

/** A run's guardrails (guardrails.ts): the answer-rate breaker and the spend. */
export interface Guardrails {
  breaker: BreakerSettings;
  state: BreakerState;
  /** Every trip, oldest first, with what was decided after it. */
  trips: Array<Trip & { resumed?: 'looked' | 'accepted' }>;
  rate_card?: RateCard;
  spend?: Spend;
}

export function keyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}

export function newRunId(): string {
  return randomBytes(3).toString('hex');
}

/** NAME.run.json next to the source file (the source's own name without its extension). */
export function defaultJournalPath(source: string | undefined, campaignId: string | undefined): string {
  if (source) return source.replace(/\.(csv|tsv|txt|xlsx|json)$/i, '') + '.run.json';
  return `campaign-${campaignId}.run.json`;
}

/** Counts the journal's writes: the benchmark reports them per wave. */
export class JournalFile {
  writes = 0;
  constructor(readonly path: string, readonly journal: Journal, private readonly now: () => Date) {}

  async save(): Promise<void> {
    this.journal.updated_at = this.now().toISOString();
    // It holds people's numbers and names: readable by its owner only.
    await writeFileAtomic(this.path, `${JSON.stringify(this.journal)}\n`, { mode: 0o600 });
    this.writes++;
  }
}

/**
 * Reads a journal for --resume or `status`, refusing (exit 2, before any request) one
 * that is not a journal, is of another version, or belongs to another service or key.
 */
export async function readJournal(path: string, account: { baseUrl: string; apiKey: string } | undefined): Promise<Journal> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `There is no journal at ${path}.` : `Cannot read the journal ${path}: ${(err as Error).message}`, {
      hint: 'A run writes its journal next to its contacts file as NAME.run.json, or where --journal said.',
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw corrupt(path, `it is not valid JSON (${(err as Error).message})`);
  }
  const j = data as Partial<Journal> | null;
  if (!j || typeof j !== 'object' || j.format !== JOURNAL_FORMAT) throw corrupt(path, 'it is not a voicectl campaign-run journal');
  if (!READABLE_VERSIONS.includes(j.version)) {
    throw new UsageError(`${path} is a campaign-run journal of version ${JSON.stringify(j.version)}; this voicectl reads versions ${READABLE_VERSIONS.join(' and ')}.`, {
      hint: 'Resume it with the voicectl that started it; nothing was sent.',
    });
  }
  const problem = shapeProblem(j);
  if (problem) throw corrupt(path, problem);
  if (account) {
    const trim = (u: string) => u.replace(/\/+$/, '');
    if (trim(j.account!.base_url) !== trim(account.baseUrl)) {
      throw new UsageError(`${path} belongs to a run against ${j.account!.base_url}, not ${account.baseUrl}: nothing was sent.`, {
        hint: `Resume it against the service it started on: --base-url ${j.account!.base_url} (or the profile that points there).`,
      });
    }
    if (j.account!.key_sha256 !== keyHash(account.apiKey)) {
      throw new UsageError(`${path} belongs to a run made with another API key (another account, or a key since replaced): nothing was sent.`, {
        hint: 'Resume it with the key that started it (--profile, or VOICECTL_API_KEY).',
      });
    }
  }
  return j as Journal;
}

function corrupt(path: string, why: string): UsageError {
  return new UsageError(`${path} cannot be used as a campaign-run journal: ${why}. Nothing was sent.`, {
    hint: 'Restore it from a backup, or start a new run. `voicectl campaign list` shows the waves created so far (named "NAME (wave N, run ID)").',
  });
}

const CONTACT_STATES = new Set(['waiting', 'in_wave', 'done', 'excluded', 'expired', 'no_zone']);
const WAVE_STATES = new Set(['creating', 'created', 'launching', 'launched', 'done', 'abandoned']);

function shapeProblem(j: Partial<Journal>): string | undefined {
  if (!j.account || typeof j.account.base_url !== 'string' || typeof j.account.key_sha256 !== 'string') return 'its account is missing';
  if (typeof j.run_id !== 'string' || typeof j.name !== 'string' || typeof j.agent_id !== 'string') return 'its run id, name or agent is missing';
  const p = j.policy;
  if (!p || typeof p !== 'object' || !p.windows || typeof p.windows.default !== 'string' || !(p.wave_size > 0) || !(p.attempts > 0) || !(p.wave_length_ms > 0) || !Array.isArray(p.retry_on)) return 'its policy is incomplete';
  // A window edited by hand (21:00-09:00, a night) is refused as the policy file refuses it.
  for (const [k, v] of Object.entries(p.windows)) {
    if (typeof v !== 'string' || !parseWindow(v)) return `its window for ${k === 'default' ? 'every contact' : k} (${JSON.stringify(v)}) is not HH:MM-HH:MM with the start before the end`;
  }
  if (!Array.isArray(j.contacts) || !Array.isArray(j.waves) || !j.days || typeof j.days !== 'object') return 'its contacts, waves or days are missing';
  for (const [i, c] of j.contacts.entries()) {
    if (!c || typeof c.phone_number !== 'string' || !CONTACT_STATES.has(c.state) || typeof c.attempts !== 'number' || !Array.isArray(c.waves)) return `contact ${i + 1} is malformed`;
  }
  for (const w of j.waves) {
    if (!w || typeof w.n !== 'number' || !WAVE_STATES.has(w.state) || !Array.isArray(w.contacts) || w.contacts.some((k) => !Number.isInteger(k) || k < 0 || k >= j.contacts!.length)) return `wave ${String(w?.n)} is malformed`;
    if (['created', 'launching', 'launched', 'done'].includes(w.state) && typeof w.campaign_id !== 'string') return `wave ${w.n} has no campaign id`;
  }
  return undefined;
}
