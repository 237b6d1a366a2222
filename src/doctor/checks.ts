/**
 * `voicectl doctor`: why isn't it working? Each check reads (the config file, the
 * environment, GET requests), never writes, and says how to fix what it finds.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Context } from '../context.js';
import { duration, grouped, noun } from '../text/text.js';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { listDeliveries, listEndpoints } from '../api/webhooks.js';
import { proxyFor } from '../api/dispatcher.js';
import { configDir, inspectConfig } from '../config/profiles.js';
import { parseWindow, formatWindow } from '../hours/calling-hours.js';
import { readExcludeList } from '../campaigns/exclude-file.js';
import { UsageError } from '../errors.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  /** A stable name for scripts: profile, config_file, reachable, key, scopes, clock, proxy, webhooks, do_not_call, calling_hours, timezone, node, caches. */
  check: string;
  status: CheckStatus;
  /** What was found, in words. */
  message: string;
  /** How to fix it, when the status is warn or fail. */
  fix?: string;
  /** Figures a script may use (latency_ms, skew_seconds, missing scopes). */
  details?: Record<string, unknown>;
}

/** Clock skew beyond which signature timestamps (five minutes' tolerance, spec section 6) are at risk. */
const SKEW_WARN_S = 30;
const SKEW_FAIL_S = 120;

/** Read-only requests that tell whether the key holds a scope: success means yes, 403 means no. */
const SCOPE_PROBES: Array<{ scope: string; path: string; query?: Record<string, number> }> = [
  { scope: 'agents:read', path: '/agents', query: { limit: 1 } },
  { scope: 'calls:read', path: '/calls', query: { limit: 1 } },
  { scope: 'webhooks:manage', path: '/webhooks/endpoints' },
];

/** Scopes only a write would show: named, not probed (doctor writes nothing). */
const UNPROBED_SCOPES = ['agents:write', 'calls:write', 'calls:dispatch'];

const MIN_NODE = [20, 18] as const;

interface State {
  api?: ApiClient;
  reachable: boolean;
  keyWorks: boolean;
  scopes: Set<string>;
}

/** The checks, in order; each runs after the one before, and `onResult` hears each as it ends. */
export async function runChecks(ctx: Context, onResult: (r: CheckResult) => void | Promise<void>): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const state: State = { reachable: false, keyWorks: false, scopes: new Set() };
  const steps: Array<() => Promise<CheckResult | CheckResult[]> | CheckResult | CheckResult[]> = [
    () => profileCheck(ctx),
    () => configFileCheck(ctx),
    () => proxyCheck(ctx),
    () => reachableCheck(ctx, state),
    () => keyChecks(ctx, state),
    () => webhooksCheck(state),
    () => doNotCallCheck(ctx),
    () => callingHoursCheck(ctx),
    () => timeZoneCheck(ctx),
    () => nodeCheck(),
    () => cachesCheck(ctx),
  ];
  for (const step of steps) {
    if (ctx.signal.aborted) break;
    const out = await step();
    for (const r of Array.isArray(out) ? out : [out]) {
      results.push(r);
      await onResult(r);
    }
  }
  return results;
}

function profileCheck(ctx: Context): CheckResult {
  const s = ctx.settings();
  const file = inspectConfig(ctx.env);
  const source = (flag: unknown, envName: string, saved: unknown) => (flag !== undefined ? 'flag' : ctx.env[envName] ? `env ${envName}` : saved !== undefined ? `profile "${s.profileName}"` : undefined);
  const details = {
    profile: s.profileName,
    base_url_from: source(ctx.opts.baseUrl, 'VOICECTL_BASE_URL', s.profile.base_url) ?? null,
    api_key_from: source(ctx.opts.apiKey, 'VOICECTL_API_KEY', s.profile.api_key) ?? null,
  };
  const named = ctx.opts.profile !== undefined || ctx.env.VOICECTL_PROFILE !== undefined;
  if (named && !(file.config.profiles && s.profileName in file.config.profiles)) {
    return { check: 'profile', status: 'fail', message: `profile "${s.profileName}" is not in ${file.path}`, fix: `Create it with \`voicectl login --profile ${s.profileName}\`, or pick a saved one with --profile.`, details };
  }
  if (!s.baseUrl) return { check: 'profile', status: 'fail', message: 'no base URL is set', fix: 'Run `voicectl login`, or set VOICECTL_BASE_URL (or pass --base-url).', details };
  if (!s.apiKey) return { check: 'profile', status: 'fail', message: 'no API key is set', fix: 'Run `voicectl login`, or set VOICECTL_API_KEY.', details };
  return { check: 'profile', status: 'ok', message: `profile "${s.profileName}": base URL from ${details.base_url_from}, key from ${details.api_key_from}`, details };
}

function configFileCheck(ctx: Context): CheckResult {
  const file = inspectConfig(ctx.env);
  if (file.problem) return { check: 'config_file', status: 'fail', message: `${file.path}: ${file.problem}`, fix: `Fix or remove ${file.path}, then run \`voicectl login\`.` };
  if (!file.exists) return { check: 'config_file', status: 'ok', message: `no config file yet (${file.path}); settings come from flags and the environment` };
  if (process.platform === 'win32') return { check: 'config_file', status: 'ok', message: file.path };
  const mode = statSync(file.path).mode & 0o777;
  const dirMode = statSync(configDir(ctx.env)).mode & 0o777;
  const details = { path: file.path, mode: octal(mode), dir_mode: octal(dirMode) };
  if (mode & 0o077) {
    return { check: 'config_file', status: 'fail', message: `${file.path} is readable by others (mode ${octal(mode)}); it holds API keys`, fix: `chmod 600 ${file.path}`, details };
  }
  if (dirMode & 0o022) {
    return { check: 'config_file', status: 'warn', message: `${configDir(ctx.env)} can be written by others (mode ${octal(dirMode)})`, fix: `chmod 700 ${configDir(ctx.env)}`, details };
  }
  return { check: 'config_file', status: 'ok', message: `${file.path} (mode ${octal(mode)})`, details };
}

function proxyCheck(ctx: Context): CheckResult {
  const url = ctx.settings().baseUrl;
  const proxy = url ? proxyFor(ctx.env, url) : undefined;
  const set = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'].filter((v) => ctx.env[v]);
  if (proxy) {
    return { check: 'proxy', status: 'ok', message: `requests go through the proxy ${proxy.where} (${proxy.variable}${proxy.credentials ? ', with credentials' : ''})`, details: { proxy: proxy.where, variable: proxy.variable } };
  }
  return { check: 'proxy', status: 'ok', message: set.length ? `no proxy for this base URL (${set.join(', ')} set; NO_PROXY or the scheme leaves it out)` : 'no proxy', details: { proxy: null } };
}

async function reachableCheck(ctx: Context, state: State): Promise<CheckResult[]> {
  if (!ctx.settings().baseUrl) return [{ check: 'reachable', status: 'skip', message: 'no base URL to reach' }, { check: 'clock', status: 'skip', message: 'no service to compare with' }];
  let api: ApiClient;
  try {
    api = await ctx.api({ auth: false });
  } catch (err) {
    return [{ check: 'reachable', status: 'fail', message: errMessage(err), fix: 'Set a base URL such as https://api.example.com/v1 with `voicectl login` or VOICECTL_BASE_URL.' }];
  }
  state.api = api;
  const started = performance.now();
  let dateHeader: string | undefined;
  try {
    // GET /voices is public: it answers whatever the key, so it measures the service alone.
    const res = await api.stream('GET', '/voices', { anonymous: true, signal: ctx.signal });
    await res.body.dump().catch(() => {});
    const d = res.headers.date;
    dateHeader = Array.isArray(d) ? d[0] : d;
  } catch (err) {
    return [
      { check: 'reachable', status: 'fail', message: errMessage(err), fix: 'Check the base URL, the network and any proxy (HTTPS_PROXY); `voicectl --debug voice list` traces the request.' },
      { check: 'clock', status: 'skip', message: 'the service did not answer' },
    ];
  }
  const ms = Math.round(performance.now() - started);
  state.reachable = true;
  const receivedAt = ctx.realNow().getTime();
  const reach: CheckResult = ms > 3000
    ? { check: 'reachable', status: 'warn', message: `${api.url('/')} answered in ${ms} ms, which is slow`, fix: 'Long waits usually come from a proxy or a distant region; raise --timeout if requests time out.', details: { latency_ms: ms } }
    : { check: 'reachable', status: 'ok', message: `${api.url('/')} answered in ${ms} ms`, details: { latency_ms: ms } };
  return [reach, clockCheck(dateHeader, receivedAt, ms)];
}

/** The service's Date header against this machine's clock, allowing for the request's own time. */
export function clockCheck(dateHeader: string | undefined, receivedAtMs: number, latencyMs: number): CheckResult {
  const server = dateHeader ? Date.parse(dateHeader) : NaN;
  if (!Number.isFinite(server)) return { check: 'clock', status: 'skip', message: 'the service sent no Date header to compare with' };
  // Date has whole seconds and was set somewhere during the request.
  const skew = Math.round((receivedAtMs - latencyMs / 2 - server) / 1000);
  const abs = Math.abs(skew);
  const words = `this machine's clock is ${duration(abs, { words: true })} ${skew > 0 ? 'ahead of' : 'behind'} the service's`;
  const details = { skew_seconds: skew };
  const fix = 'Turn on network time (Linux: `timedatectl set-ntp true`; macOS: System Settings > General > Date & Time). Webhook signatures older than five minutes are refused, so `listen` and `trigger` fail with a skewed clock.';
  if (abs >= SKEW_FAIL_S) return { check: 'clock', status: 'fail', message: `clock skew: ${words}`, fix, details };
  if (abs >= SKEW_WARN_S) return { check: 'clock', status: 'warn', message: `clock skew: ${words}`, fix, details };
  return { check: 'clock', status: 'ok', message: abs <= 1 ? 'the clock agrees with the service\'s' : `the clock is within ${abs} s of the service's`, details };
}

async function keyChecks(ctx: Context, state: State): Promise<CheckResult[]> {
  if (!state.reachable || !ctx.settings().apiKey) {
    return [{ check: 'key', status: 'skip', message: state.reachable ? 'no API key to check' : 'the service is not reachable' }, { check: 'scopes', status: 'skip', message: 'no working key to check' }];
  }
  let api: ApiClient;
  try {
    api = await ctx.api();
  } catch (err) {
    return [{ check: 'key', status: 'fail', message: errMessage(err), fix: 'Run `voicectl login`, or set VOICECTL_API_KEY.' }];
  }
  state.api = api;
  const have: string[] = [];
  const missing: string[] = [];
  const unknown: string[] = [];
  for (const probe of SCOPE_PROBES) {
    try {
      await api.get(probe.path, { query: probe.query, signal: ctx.signal });
      have.push(probe.scope);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        return [
          { check: 'key', status: 'fail', message: `the service refused the key (401): ${err.message}`, fix: 'The key may be revoked or mistyped: create one in the dashboard under API access and run `voicectl login`.' },
          { check: 'scopes', status: 'skip', message: 'the key is refused' },
        ];
      }
      if (err instanceof ApiError && err.status === 403) missing.push(probe.scope);
      else unknown.push(probe.scope);
    }
  }
  state.keyWorks = true;
  for (const s of have) state.scopes.add(s);
  const key: CheckResult = { check: 'key', status: 'ok', message: 'the service accepts the key' };
  const details = { has: have, missing, not_checked: [...UNPROBED_SCOPES, ...unknown] };
  const untested = `not checked without writing: ${UNPROBED_SCOPES.join(', ')}`;
  if (missing.length > 0) {
    return [key, {
      check: 'scopes', status: 'warn',
      message: `the key lacks the ${noun(missing.length, 'scope')} ${missing.join(', ')} (has ${have.join(', ') || 'none of those checked'}; ${untested})`,
      fix: `Commands that need ${missing.join(', ')} exit 3 with this key. Create a key with ${missing.length === 1 ? 'that scope' : 'those scopes'} in the dashboard under API access, then \`voicectl login\`.`,
      details,
    }];
  }
  return [key, { check: 'scopes', status: 'ok', message: `the key has ${have.join(', ')}${unknown.length ? `; ${unknown.join(', ')} could not be checked` : ''} (${untested})`, details }];
}

async function webhooksCheck(state: State): Promise<CheckResult> {
  if (!state.keyWorks || !state.api) return { check: 'webhooks', status: 'skip', message: 'no working key' };
  if (!state.scopes.has('webhooks:manage')) return { check: 'webhooks', status: 'skip', message: 'the key cannot read webhook endpoints (webhooks:manage)' };
  const api = state.api;
  let endpoints;
  try {
    endpoints = await listEndpoints(api);
  } catch (err) {
    return { check: 'webhooks', status: 'skip', message: `the webhook endpoints could not be read: ${errMessage(err)}` };
  }
  if (endpoints.length === 0) return { check: 'webhooks', status: 'ok', message: 'no webhook endpoints', details: { endpoints: 0 } };
  const failing: Array<{ id: string; url?: string; failed: number }> = [];
  for (const e of endpoints) {
    try {
      const { items } = await listDeliveries(api, e.id, { limit: 50 });
      const failed = items.filter(isFailedDelivery).length;
      if (failed > 0) failing.push({ id: e.id, url: e.url, failed });
    } catch {
      // An endpoint whose deliveries cannot be read says nothing about the others.
    }
  }
  const disabled = endpoints.filter((e) => e.enabled === false).length;
  const details = { endpoints: endpoints.length, disabled, failing };
  if (failing.length > 0) {
    return {
      check: 'webhooks', status: 'warn',
      message: `recent failed deliveries: ${failing.map((f) => `${f.failed} to ${f.url ?? f.id} (${f.id})`).join('; ')}`,
      fix: `See why with \`voicectl webhook deliveries ${failing[0]!.id}\`; a receiver must answer 2xx within 10 seconds. \`voicectl listen\` shows what arrives locally.`,
      details,
    };
  }
  return { check: 'webhooks', status: 'ok', message: `${endpoints.length} ${noun(endpoints.length, 'endpoint')}${disabled ? `, ${disabled} disabled` : ''}; no failed deliveries among the recent ones`, details };
}

/** The delivery record's field names are not in the spec: a status saying so, or a last response that was not 2xx. */
function isFailedDelivery(d: Record<string, unknown>): boolean {
  const status = String(d.status ?? d.state ?? '').toLowerCase();
  if (/fail|error|retry/.test(status)) return true;
  const code = Number(d.last_response_code ?? d.response_code ?? d.last_status_code);
  return Number.isFinite(code) && code > 0 && (code < 200 || code >= 300) && !/deliver|success|ok/.test(status);
}

/**
 * The profile's do-not-call file, read as `campaign create|redial|launch` read it (the same
 * reader: a FIFO, a device, an empty or binary file, numbers without a country are refused
 * there, so they fail here), then its age.
 */
async function doNotCallCheck(ctx: Context): Promise<CheckResult> {
  const file = ctx.settings().profile.do_not_call_file;
  if (!file) return { check: 'do_not_call', status: 'ok', message: 'no do-not-call file in the profile', details: { file: null } };
  const path = resolve(ctx.cwd, file);
  let numbers: number;
  let mtime: number;
  try {
    numbers = (await readExcludeList(path, ctx.settings().defaultCountry, ctx.signal)).numbers.size;
    mtime = statSync(path).mtimeMs;
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const fix = 'Restore it, or point the profile at the current one: voicectl config set do_not_call_file FILE.';
    if (err instanceof UsageError) {
      return { check: 'do_not_call', status: 'fail', message: `the profile's do-not-call file cannot be used: ${err.message}`, fix: err.hint ?? fix, details: { file: path } };
    }
    return { check: 'do_not_call', status: 'fail', message: `the profile's do-not-call file ${path} cannot be read: ${errMessage(err)}`, fix, details: { file: path } };
  }
  const days = Math.floor((ctx.now().getTime() - mtime) / 86_400_000);
  const details = { file: path, age_days: days, numbers };
  if (days > 30) {
    return { check: 'do_not_call', status: 'warn', message: `${path} was last changed ${days} days ago`, fix: 'Refresh it from your do-not-call source before the next campaign; numbers opted out since then would be called.', details };
  }
  return { check: 'do_not_call', status: 'ok', message: `${path}, ${grouped(numbers)} ${noun(numbers, 'number')}, changed ${days === 0 ? 'today' : `${days} ${noun(days, 'day')} ago`}`, details };
}

function callingHoursCheck(ctx: Context): CheckResult {
  const saved = ctx.settings().profile.calling_hours;
  if (saved === undefined) return { check: 'calling_hours', status: 'ok', message: 'calling hours: the default 09:00-21:00 in each contact\'s zone' };
  const w = parseWindow(saved);
  if (!w) return { check: 'calling_hours', status: 'fail', message: `the profile's calling_hours "${saved}" is not a window of hours`, fix: 'voicectl config set calling_hours 09:00-21:00' };
  return { check: 'calling_hours', status: 'ok', message: `calling hours ${formatWindow(w)} in each contact's zone (profile)` };
}

/**
 * The zone times are shown in, checked by the code every command that shows a time uses:
 * VOICECTL_TZ and the profile's timezone each (a bad one stops those commands with exit 2,
 * and a good VOICECTL_TZ only hides a bad profile zone until it is unset), then the zone in
 * effect.
 */
function timeZoneCheck(ctx: Context): CheckResult {
  const problems: UsageError[] = [];
  for (const saved of [() => ctx.envZone(), () => ctx.profileZone()]) {
    try {
      saved();
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      problems.push(err);
    }
  }
  if (problems.length > 0) {
    return { check: 'timezone', status: 'fail', message: problems.map((p) => p.message).join(' '), fix: problems.map((p) => p.hint).filter(Boolean).join(' ') };
  }
  const zone = ctx.timeZone;
  const from = ctx.opts.tz !== undefined ? '--tz' : ctx.envZone() ? 'VOICECTL_TZ' : ctx.profileZone() ? 'the profile' : 'the system';
  return { check: 'timezone', status: 'ok', message: `times are shown in ${zone} (from ${from})`, details: { zone, from } };
}

function nodeCheck(): CheckResult {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const details = { node: process.versions.node, path: process.execPath };
  if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
    return { check: 'node', status: 'fail', message: `Node ${process.versions.node} is older than voicectl needs (${MIN_NODE.join('.')})`, fix: 'Install Node 20.18 or later (22 or 24 recommended).', details };
  }
  return { check: 'node', status: 'ok', message: `Node ${process.versions.node} (${process.execPath})`, details };
}

function cachesCheck(ctx: Context): CheckResult {
  const code = join(ctx.env.XDG_CACHE_HOME || join(ctx.env.HOME ?? homedir(), '.cache'), 'voicectl', 'code');
  return { check: 'caches', status: 'ok', message: `compiled-code cache: ${code}; config: ${configDir(ctx.env)}`, details: { code_cache: code, config_dir: configDir(ctx.env) } };
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}

function errMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
