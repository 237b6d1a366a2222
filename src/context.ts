/**
 * Everything a command touches from outside: streams, environment, clock, the saved
 * profile, the API client. Injected, so tests run commands in process with fake streams.
 */
import type { ChalkInstance } from 'chalk';
import type { ApiClient } from './api/client.js';
import { inspectConfig, readProfile, type Profile } from './config/profiles.js';
import { AuthError, UsageError } from './errors.js';
import { proxySecrets, redact } from './util/redact.js';
import { canonicalZone, systemZone, ZONE_HELP } from './util/time.js';
import { Clock, type Sleep } from './util/clock.js';
import { terminalSafe } from './text/terminal-text.js';
import { IOStreams, type Env, type IoContext, type Streams, type TerminalOptions } from './io/streams.js';

// The streams and their types live with the terminal's rules (src/io/streams.ts); named here too for the modules that take a Context.
export type { Env, InStream, OutputFormat, OutStream, Streams } from './io/streams.js';

/** Global options, as commander parsed them. */
export interface GlobalOptions extends TerminalOptions {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  debug?: boolean;
  timeout?: number;
  tz?: string;
}

export interface Settings {
  profileName: string;
  profile: Profile;
  baseUrl?: string;
  apiKey?: string;
  defaultCountry?: string;
  /** The profile's strict setting: every warning about a contacts file is an error (--strict). */
  strict: boolean;
  timeoutMs: number;
}

export interface ContextInit {
  io: Streams;
  env: Env;
  cwd?: string;
  now?: () => Date;
  sleep?: Sleep;
  random?: () => number;
  signal?: AbortSignal;
  /** voicectl mcp: files a command finds by itself (in a folder it walks) must really be inside this folder. */
  filesInside?: string;
}

export class Context implements IoContext {
  /** The streams and every terminal rule: format, colour, prompts, progress (src/io/streams.ts). */
  readonly io: IOStreams;
  readonly env: Env;
  readonly cwd: string;
  /** The clock the run decides on and the machine's own (util/clock.ts). */
  readonly clock: Clock;
  readonly now: () => Date;
  readonly sleep: Sleep;
  readonly random: () => number;
  /** voicectl mcp: files a command finds by itself (in a folder it walks) must really be inside this folder, and not hidden. */
  readonly filesInside?: string;
  private signalValue?: AbortSignal;
  /** Set by the program's pre-action hook before any command runs. */
  opts: GlobalOptions = {};
  /** Errors go to stderr as one JSON object (--json, -o json, VOICECTL_ERROR_FORMAT=json): set by run() before parsing. */
  jsonErrors = false;
  private settingsCache?: Settings;
  private zoneCache?: string;
  private client?: Promise<ApiClient>;
  private closers: Array<() => Promise<void> | void> = [];
  private extraSecrets = new Set<string>();

  constructor(init: ContextInit) {
    this.io = new IOStreams(init.io, init.env, () => this.opts);
    this.env = init.env;
    this.cwd = init.cwd ?? process.cwd();
    this.clock = new Clock({
      now: init.now,
      sleep: init.sleep,
      sandboxClockEnv: () => this.env.VOICECTL_SANDBOX_CLOCK,
      // Not settings(): this may run while flags are still being read, before they can be cached.
      baseUrl: () => this.opts.baseUrl ?? this.env.VOICECTL_BASE_URL,
    });
    this.now = this.clock.now;
    this.sleep = this.clock.sleep;
    this.random = init.random ?? Math.random;
    this.filesInside = init.filesInside;
    this.signalValue = init.signal;
  }

  /** This machine's clock, never the sandbox's (util/clock.ts). */
  realNow(): Date {
    return this.clock.realNow();
  }

  /** A wait on this machine's clock, whatever clock the run decides on. */
  realSleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.clock.realSleep(ms, signal);
  }

  /** Aborted on Ctrl-C; long-running commands stop on it. (Made on first use: help never needs one.) */
  get signal(): AbortSignal {
    return (this.signalValue ??= new AbortController().signal);
  }

  /** Colours for stdout, as ctx.io decides them. */
  get color(): ChalkInstance {
    return this.io.color;
  }

  /** Colours for stderr, as ctx.io decides them. */
  get errColor(): ChalkInstance {
    return this.io.errColor;
  }

  /** A profile asked for by name (--profile, VOICECTL_PROFILE) that is not in the config file. */
  private missingProfile(name: string): UsageError | undefined {
    if (this.opts.profile === undefined && this.env.VOICECTL_PROFILE === undefined) return undefined;
    const file = inspectConfig(this.env);
    const saved = Object.keys(file.config.profiles ?? {});
    if (saved.includes(name)) return undefined;
    return new UsageError(`There is no profile "${name}" in ${file.path}.`, {
      hint: `${saved.length ? `Saved profiles: ${saved.join(', ')}. ` : 'No profile is saved yet. '}Create it with \`voicectl login --profile ${name}\`.`,
    });
  }

  /** Flag, then environment, then profile, then default. */
  settings(): Settings {
    if (this.settingsCache) return this.settingsCache;
    const profileName = this.opts.profile ?? this.env.VOICECTL_PROFILE ?? 'default';
    const profile = readProfile(this.env, profileName);
    const timeoutSec = this.opts.timeout ?? numberOr(this.env.VOICECTL_TIMEOUT) ?? numberOr(profile.timeout) ?? 30;
    this.settingsCache = {
      profileName,
      profile,
      baseUrl: this.opts.baseUrl ?? nonEmpty(this.env.VOICECTL_BASE_URL) ?? profile.base_url,
      apiKey: this.opts.apiKey ?? nonEmpty(this.env.VOICECTL_API_KEY) ?? profile.api_key,
      defaultCountry: nonEmpty(this.env.VOICECTL_DEFAULT_COUNTRY) ?? profile.default_country,
      strict: profile.strict === 'true',
      timeoutMs: Math.round(timeoutSec * 1000),
    };
    return this.settingsCache;
  }

  /**
   * The zone of every time a person reads, and of dates typed without an offset (a
   * canonical IANA name): --tz, VOICECTL_TZ, the profile's timezone, else the system's.
   * Read only by commands that show or read times, so a bad setting stops only them.
   */
  get timeZone(): string {
    return (this.zoneCache ??= this.opts.tz
      ?? this.envZone()
      ?? this.profileZone()
      ?? systemZone(this.env));
  }

  /** VOICECTL_TZ as a canonical zone, undefined when unset; exit 2 when it names no zone. */
  envZone(): string | undefined {
    return savedZone(nonEmpty(this.env.VOICECTL_TZ), 'VOICECTL_TZ', 'Set VOICECTL_TZ to');
  }

  /** The profile's timezone as a canonical zone, undefined when unset; exit 2 when it names no zone. */
  profileZone(): string | undefined {
    return savedZone(this.settings().profile.timezone, 'The profile\'s timezone', 'Fix it with `voicectl config set timezone ZONE`, ZONE');
  }

  /**
   * The API client for this run. `auth: false` for public endpoints (GET /voices).
   * undici is loaded here, not at start-up: even its parts cost ~60 ms to load.
   */
  api(options: { auth?: boolean } = {}): Promise<ApiClient> {
    const s = this.settings();
    if (!s.baseUrl) {
      const missing = this.missingProfile(s.profileName);
      if (missing) return Promise.reject(missing);
      return Promise.reject(new UsageError('No service address is set.', {
        hint: 'Pass --base-url, set VOICECTL_BASE_URL, or run `voicectl login`. To try voicectl locally, start `voicectl sandbox` and paste the export line it prints.',
      }));
    }
    try {
      const u = new URL(s.baseUrl);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
    } catch {
      return Promise.reject(new UsageError(`The base URL "${s.baseUrl}" is not an http(s) URL.`, { hint: 'Use a URL such as https://api.example.com/v1.' }));
    }
    if (options.auth !== false && !s.apiKey) {
      return Promise.reject(new AuthError('No API key is set.', {
        hint: 'Set VOICECTL_API_KEY (recommended for scripts) or run `voicectl login`.',
      }));
    }
    if (!this.client) {
      this.client = this.makeClient(s);
      // --jq's engine loads on its own thread while the requests are under way.
      if (this.io.jq !== undefined) void import('./io/jq-warm.js').then((w) => w.warmJq(this), () => {});
    }
    return this.client;
  }

  /** A client for credentials that are not (yet) the settings': `login` checks a key before saving it. */
  apiWith(credentials: { baseUrl: string; apiKey: string }): Promise<ApiClient> {
    return this.makeClient({ ...this.settings(), ...credentials });
  }

  private async makeClient(s: Settings): Promise<ApiClient> {
    const [{ ApiClient }, { makeDispatcher, proxyFor }] = await Promise.all([import('./api/client.js'), import('./api/dispatcher.js')]);
    const dispatcher = makeDispatcher(this.env, s.timeoutMs);
    this.onClose(() => dispatcher.close());
    const debug = this.opts.debug || isTrue(this.env.VOICECTL_DEBUG)
      ? (line: string) => { this.io.stderr.write(`${this.errColor.dim(`[debug] ${this.redact(line)}`)}\n`); }
      : undefined;
    return new ApiClient({
      baseUrl: s.baseUrl!,
      apiKey: s.apiKey,
      timeoutMs: s.timeoutMs,
      maxResponseBytes: maxResponseBytes(this.env.VOICECTL_MAX_RESPONSE_MB),
      dispatcher,
      debug,
      // Retries and Retry-After stay on real time: they guard the service, not the schedule.
      sleep: (ms) => this.clock.realSleep(ms, this.signal),
      random: this.random,
      signal: this.signal,
      now: () => this.clock.realNow().getTime(),
      onSandboxClock: (clock) => this.clock.follow(clock),
      proxyFor: (url) => proxyFor(this.env, url),
      // --jq reads the service's JSON text, not JavaScript's numbers (src/io/filter.ts).
      keepJsonText: this.io.jq !== undefined,
    });
  }

  /** A secret this run holds besides the key and the saved webhook secret (a `--secret` flag): masked in everything redact() sees. */
  addSecret(value: string | undefined): void {
    if (value) this.extraSecrets.add(value);
  }

  /**
   * Text for people (errors, traces, `config list`) with every secret masked: URL
   * credentials, secret-looking query values, the API key and webhook secrets in use,
   * the proxy's password and Proxy-Authorization token.
   */
  redact(text: string): string {
    const secrets = [...this.extraSecrets, this.opts.apiKey, this.env.VOICECTL_API_KEY, this.env.VOICECTL_WEBHOOK_SECRET, ...proxySecrets(this.env)];
    try {
      const { apiKey, profile } = this.settings();
      secrets.push(apiKey, profile.api_key, profile.webhook_secret);
    } catch {
      // An unreadable config holds no secret this run could print.
    }
    return redact(text, secrets);
  }

  /** Runs when the command ends, whatever the outcome (closes sockets, restores the terminal). */
  onClose(fn: () => Promise<void> | void): void {
    this.closers.push(fn);
  }

  async close(): Promise<void> {
    const fns = this.closers.splice(0).reverse();
    for (const fn of fns) {
      try {
        await fn();
      } catch {
        // closing is best effort: the command's own outcome is what the user needs
      }
    }
  }

  /** Writes a line of data to stdout. */
  out(line = ''): void {
    this.io.stdout.write(`${line}\n`);
  }

  /** Writes a line of information to stderr. */
  info(line = ''): void {
    this.io.stderr.write(`${line}\n`);
  }

  /** A warning often quotes a file or a server: its control characters are shown, not obeyed. */
  warn(line: string): void {
    this.io.stderr.write(`${this.errColor.yellow('warning:')} ${terminalSafe(line, { multiline: true })}\n`);
  }
}

function isTrue(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** A zone from the environment or the profile (--tz is checked by its parser); exit 2 when it names none. */
function savedZone(v: string | undefined, where: string, fix: string): string | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const zone = canonicalZone(v);
  if (!zone) throw new UsageError(`${where} "${v}" is not a time zone.`, { hint: `${fix} ${ZONE_HELP}, or pass --tz.` });
  return zone;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

/** VOICECTL_MAX_RESPONSE_MB: the cap on a JSON response, in MiB (64 unless set). */
function maxResponseBytes(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const mb = Number(v);
  if (!Number.isFinite(mb) || mb <= 0) {
    throw new UsageError(`VOICECTL_MAX_RESPONSE_MB must be a positive number of megabytes, got "${v}".`, { hint: 'Unset it for the default of 64.' });
  }
  return Math.round(mb * 1024 * 1024);
}

function numberOr(v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
