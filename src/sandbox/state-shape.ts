/**
 * The structure of a `--state` file, checked at start: a file that is valid JSON of the
 * wrong shape (edited by hand, written by another version, another program's file) is
 * refused with the path of the first wrong value, instead of loading and then failing
 * requests with 500s. Fields added in later versions may be missing (they get their
 * defaults on load); fields that are present must have the type the sandbox relies on.
 */
import { isObject } from '../util/is-object.js';

type Check = (v: unknown, at: string) => string | undefined;

const kind = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'string' ? 'a string' : `a ${typeof v}`;

const str: Check = (v, at) => (typeof v === 'string' ? undefined : `${at} must be a string (got ${kind(v)})`);
const num: Check = (v, at) => (typeof v === 'number' && Number.isFinite(v) ? undefined : `${at} must be a number (got ${kind(v)})`);
const bool: Check = (v, at) => (typeof v === 'boolean' ? undefined : `${at} must be true or false (got ${kind(v)})`);
const orNull = (c: Check): Check => (v, at) => (v === null ? undefined : c(v, at));
const oneOf = (...values: string[]): Check => (v, at) =>
  typeof v === 'string' && values.includes(v) ? undefined : `${at} must be one of ${values.join(', ')} (got ${typeof v === 'string' ? JSON.stringify(v) : kind(v)})`;

const arrayOf = (c: Check, length?: number): Check => (v, at) => {
  if (!Array.isArray(v)) return `${at} must be an array (got ${kind(v)})`;
  if (length !== undefined && v.length !== length) return `${at} must have ${length} items (got ${v.length})`;
  for (let i = 0; i < v.length; i++) {
    const p = c(v[i], `${at}[${i}]`);
    if (p) return p;
  }
  return undefined;
};

/** An object with these fields; `?` after a name makes it optional. */
const object = (fields: Record<string, Check>): Check => (v, at) => {
  if (!isObject(v)) return `${at} must be an object (got ${kind(v)})`;
  for (const [spec, c] of Object.entries(fields)) {
    const optional = spec.endsWith('?');
    const name = optional ? spec.slice(0, -1) : spec;
    if (!Object.hasOwn(v, name) || v[name] === undefined) {
      if (optional) continue;
      return `${at}.${name} is missing`;
    }
    const p = c(v[name], `${at}.${name}`);
    if (p) return p;
  }
  return undefined;
};

/** A record keyed by id; with `idField`, each value's id must be its key. */
const recordOf = (c: Check, idField?: string): Check => (v, at) => {
  if (!isObject(v)) return `${at} must be an object (got ${kind(v)})`;
  for (const [k, item] of Object.entries(v)) {
    const where = `${at}[${JSON.stringify(k)}]`;
    const p = c(item, where);
    if (p) return p;
    if (idField && (item as Record<string, unknown>)[idField] !== k) return `${where}.${idField} must be its key, ${JSON.stringify(k)}`;
  }
  return undefined;
};

const strings = arrayOf(str);
const CONTACT_STATUS = oneOf('pending', 'initiated', 'completed', 'no_answer', 'failed');

const agent = object({
  id: str, name: str, status: str, language: str, voice_name: str, greeting: str, call_purpose: str, prompt: str,
  tools: strings, kb_item_ids: strings, direction: str, 'phone_number?': orNull(str), created_at: str, updated_at: str,
});

const campaign = object({
  id: str, name: str, agent_id: orNull(str), 'campaign_prompt?': str, 'kb_item_ids?': strings,
  status: oneOf('draft', 'running', 'completed'), created_at: str, launched_at: orNull(str), completed_at: orNull(str),
  contacts: arrayOf(object({ phone_number: str, name: str, status: CONTACT_STATUS, 'call_id?': str })),
  contacts_by_status: recordOf(num), '_key?': str, '_resume_at?': num, '_script?': str,
});

const call = object({
  call_id: str, campaign_id: orNull(str), agent_id: orNull(str), agent_name: str, direction: str, phone_number: str,
  status: str, end_reason: orNull(str), outcome: orNull(str), summary: orNull(str), error: orNull(str),
  duration_seconds: orNull(num), start_time: str, end_time: orNull(str), has_recording: bool,
  contact: object({ name: str }), _start: num, _seed: num, _script: str, _ci: num,
});

const script = object({ agent_name: str, greeting: str, call_purpose: str, prompt: str, campaign_prompt: str, language: str, tools: strings });

const kb = object({
  items: recordOf(object({ id: str, name: str, type: oneOf('file', 'folder'), path: str, folder: str, size_bytes: num, 'job_id?': str, created_at: str, updated_at: str }), 'id'),
  jobs: recordOf(object({ id: str, item_id: str, created: num, processing_at: num, done_at: num, outcome: object({ ok: bool }) }), 'id'),
});

const webhooks = object({
  endpoints: recordOf(object({ id: str, url: str, events: strings, enabled: bool, secret: str, created_at: str, updated_at: str }), 'id'),
  deliveries: recordOf(object({
    id: str, endpoint_id: str, event_id: str, event_type: str, status: oneOf('pending', 'delivered', 'failed'), attempts: num,
    last_response_code: orNull(num), last_error: orNull(str), last_attempt_at: orNull(str), next_retry_at: orNull(str),
    created_at: str, '_body?': str, '_due?': num, _seq: num,
  }), 'id'),
  seq: num,
});

const org = object({
  id: str,
  'agents?': recordOf(agent, 'id'),
  'campaigns?': recordOf(campaign, 'id'),
  'calls?': recordOf(call, 'call_id'),
  'scripts?': recordOf(script),
  'seq?': num,
  'dispatched?': recordOf(object({ day: str, count: num })),
  'kb?': kb,
  'webhooks?': webhooks,
});

const keyDef = object({ key: str, org: str, scopes: strings, 'daily_dispatch_cap?': num });

const state = object({
  version: (v, at) => (v === 1 ? undefined : `${at} must be 1 (got ${JSON.stringify(v) ?? kind(v)})`),
  saved_at: num,
  seed: num,
  secret: str,
  'rng?': arrayOf(num, 4),
  'default_key?': keyDef,
  orgs: arrayOf(org),
});

/** The first thing wrong with a parsed state file, as a path and a reason ("orgs[0].calls["c1"].start_time must be a string (got a number)"), or undefined. */
export function stateProblem(data: unknown): string | undefined {
  const problem = state(data, 'state');
  if (problem) return problem.replace(/^state\./, '').replace(/^state /, 'the file ');
  const ids = new Set<string>();
  for (const [i, o] of (data as { orgs: Array<{ id: string }> }).orgs.entries()) {
    if (ids.has(o.id)) return `orgs[${i}].id repeats the organization ${JSON.stringify(o.id)}`;
    ids.add(o.id);
  }
  return undefined;
}
