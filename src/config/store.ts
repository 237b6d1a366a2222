/**
 * The write side of profiles. Reads stay on the fast path in profiles.ts; writes go
 * through conf (atomic writes), which is loaded only here because importing it costs
 * ~85 ms. The file is the one readConfig reads: <configDir>/config.json, mode 0600.
 * Every read-modify-write holds a lock (proper-lockfile), so processes that save
 * profiles at the same time (parallel CI jobs, scripts) never lose each other's changes.
 */
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { FailureError, UsageError } from '../errors.js';
import { configDir, configFileError, inspectConfig, PROFILE_KEYS, type ConfigFile, type KeyCheckedByCaller, type Profile, type ProfileKey } from './profiles.js';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** A setting's name as users type it (`base-url` is accepted for `base_url`). */
export function checkKey(key: string): ProfileKey {
  const k = key.trim().toLowerCase().replace(/-/g, '_');
  if ((PROFILE_KEYS as readonly string[]).includes(k)) return k as ProfileKey;
  throw new UsageError(`Unknown setting "${key}".`, { hint: `Valid keys: ${PROFILE_KEYS.join(', ')}.` });
}

/** Profile names become JSON keys and appear in messages: keep them plain. */
export function checkProfileName(name: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) return name;
  throw new UsageError(`"${name}" is not a usable profile name.`, {
    hint: 'Use letters, digits, ".", "_" or "-" (at most 64 characters), for example "staging".',
  });
}

/** Checks a trimmed value (`raw` as typed, for the message) and returns it as stored; a bad value throws UsageError. */
export type SettingCheck = (value: string, raw: string) => string | Promise<string>;
/** The checks of the settings another module understands (KEYS_CHECKED_BY_CALLER). */
export type SettingChecks = Record<KeyCheckedByCaller, SettingCheck>;

/** Checks a value for a setting and returns it as stored; bad values are exit 2. */
export async function normalizeValue(key: ProfileKey, raw: string, checks: SettingChecks): Promise<string> {
  const v = raw.trim();
  switch (key) {
    case 'base_url':
      return checkBaseUrl(v);
    case 'api_key':
      return checkApiKey(v);
    case 'webhook_secret':
      return checkSecret(v, 'webhook secret');
    case 'webhook_endpoint':
      if (v === '' || /\s/.test(v)) throw new UsageError(`"${raw}" is not a webhook endpoint id.`, { hint: 'Use the id from `voicectl webhook list`.' });
      return v;
    case 'default_country':
    case 'calling_hours':
    case 'rate_card':
      return checks[key](v, raw);
    case 'timezone': {
      const { canonicalZone, ZONE_HELP } = await import('../util/time.js');
      const zone = canonicalZone(v);
      if (!zone) throw new UsageError(`"${raw}" is not a time zone.`, { hint: `Use ${ZONE_HELP}.` });
      return zone;
    }
    case 'do_not_call_file': {
      // Stored absolute: the setting applies from whatever directory voicectl runs in.
      if (v === '') throw new UsageError('The do-not-call file path is empty.', { hint: 'For example: voicectl config set do_not_call_file ~/lists/do-not-call.csv' });
      const { resolve } = await import('node:path');
      const path = resolve(v);
      if (!existsSync(path)) throw new UsageError(`${path} does not exist.`, { hint: 'Give the path of a CSV, .xlsx or text file with one number a line.' });
      return path;
    }
    case 'strict': {
      const on = /^(?:true|yes|on|1)$/i.test(v);
      if (!on && !/^(?:false|no|off|0)$/i.test(v)) {
        throw new UsageError(`"${raw}" is not a strict setting: expected true or false.`, { hint: 'For example: voicectl config set strict true' });
      }
      return on ? 'true' : 'false';
    }
    case 'timeout': {
      const n = Number(v);
      if (v === '' || !Number.isFinite(n) || n <= 0) {
        throw new UsageError(`"${raw}" is not a timeout: expected a positive number of seconds.`, { hint: 'For example: voicectl config set timeout 60' });
      }
      return String(n);
    }
  }
}

export function checkBaseUrl(value: string): string {
  const v = value.trim();
  let u: URL | undefined;
  try {
    u = new URL(v);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) {
    throw new UsageError(`"${value}" is not an http(s) URL.`, { hint: 'Use the service address, for example https://api.example.com/v1.' });
  }
  // The client joins paths onto the base; a trailing slash would only be stripped there.
  return v.replace(/\/+$/, '');
}

export function checkApiKey(value: string): string {
  return checkSecret(value, 'API key');
}

function checkSecret(value: string, what: string): string {
  const v = value.trim();
  if (v === '') throw new UsageError(`The ${what} is empty.`);
  // A space or line break inside would make an invalid X-API-Key header on every request.
  if (/[\s\x00-\x1f\x7f]/.test(v)) throw new UsageError(`The ${what} contains spaces, line breaks or control characters.`, { hint: 'Paste it exactly as the dashboard showed it.' });
  return v;
}

/** Changes to one profile: a string sets a key, undefined removes it. */
export type ProfileChanges = Partial<Record<ProfileKey, string | undefined>>;

export interface ProfileStore {
  readonly path: string;
  profile(name: string): Profile;
  /** Reads the file, changes one profile and writes it back, all under the file's lock. */
  update(name: string, changes: ProfileChanges): Promise<Profile>;
}

/**
 * How long a process waits for another one's lock: each holds it for the few
 * milliseconds of one read and one write, so ten at once wait well under a second.
 */
const LOCK_RETRIES = { retries: 30, factor: 1.3, minTimeout: 5, maxTimeout: 250, randomize: true };
/** A lock older than this belongs to a process that died holding it. */
const LOCK_STALE_MS = 10_000;

/** Opens the config file for writing, creating its directory (mode 0700) when missing and narrowing it to 0700 when looser. */
export async function openStore(env: Record<string, string | undefined>): Promise<ProfileStore> {
  const first = inspectConfig(env);
  // A file that cannot be used is the user's to fix: never overwrite it.
  if (first.problem) throw configFileError(first.path, first.problem);
  const dir = configDir(env);
  if (!existsSync(dir)) {
    try {
      mkdirSync(dir, { recursive: true, mode: DIR_MODE });
      // mkdir's mode is filtered by the umask; the directory holds a secret, so be exact.
      chmodSync(dir, DIR_MODE);
    } catch (err) {
      throw new FailureError(`Cannot create the config directory ${dir}: ${fsReason(err)}.`, {
        hint: 'Set VOICECTL_CONFIG_DIR to a directory you can write to.',
      });
    }
  } else {
    tightenDir(dir);
  }
  // conf and proper-lockfile are loaded only by commands that change the config (see the header comment).
  const [{ default: Conf }, lockfile] = await Promise.all([import('conf'), import('proper-lockfile')]);
  let conf: InstanceType<typeof Conf<ConfigFile>>;
  try {
    conf = new Conf<ConfigFile>({
      projectName: 'voicectl',
      cwd: dir,
      configName: 'config',
      configFileMode: FILE_MODE,
      // Profile names may contain dots ("prod.eu"): keys are never paths.
      accessPropertiesByDotNotation: false,
    });
  } catch (err) {
    throw new FailureError(`Cannot read the config file in ${dir}: ${fsReason(err)}.`, {
      hint: 'Fix the file or delete it (then run `voicectl login` again).',
    });
  }
  const path = conf.path;

  return {
    path,
    profile(name) {
      const all = inspectConfig(env).config.profiles ?? {};
      return Object.hasOwn(all, name) ? { ...all[name] } : {};
    },
    async update(name, changes) {
      checkProfileName(name);
      let release: () => Promise<void>;
      try {
        // The lock is a directory beside the file (config.json.lock); the file itself may not exist yet.
        release = await lockfile.lock(path, {
          realpath: false, stale: LOCK_STALE_MS, retries: LOCK_RETRIES,
          // Held for milliseconds; if it is ever taken over as stale, the write still goes through whole (atomic rename).
          onCompromised: () => {},
        });
      } catch (err) {
        throw new FailureError(`Cannot lock the config file ${path}: ${(err as NodeJS.ErrnoException).code === 'ELOCKED' ? 'another voicectl process kept it locked' : fsReason(err)}.`, {
          hint: `Try again. If no other voicectl is running, remove ${path}.lock.`,
        });
      }
      try {
        // Read again under the lock: another process may have written since this one started.
        const current = inspectConfig(env);
        if (current.problem) throw configFileError(current.path, current.problem);
        const all: Record<string, Profile> = { ...current.config.profiles };
        const next: Profile = Object.hasOwn(all, name) ? { ...all[name] } : {};
        for (const [k, v] of Object.entries(changes) as [ProfileKey, string | undefined][]) {
          if (v === undefined) delete next[k];
          else next[k] = v;
        }
        if (Object.keys(next).length === 0) delete all[name];
        else all[name] = next;
        try {
          conf.set('profiles', all);
          // conf sets the mode only when it creates the file; an older, looser file is tightened here.
          if (process.platform !== 'win32') chmodSync(path, FILE_MODE);
        } catch (err) {
          throw new FailureError(`Cannot write the config file ${path}: ${fsReason(err)}.`);
        }
        return next;
      } finally {
        await release().catch(() => {});
      }
    },
  };
}

/**
 * A config folder that already existed (made by hand, by an older voicectl, or under a
 * loose umask) is narrowed to 0700 before a secret is written into it, as a new one is
 * made. Only a folder the user owns: another user's (a shared VOICECTL_CONFIG_DIR) is
 * not voicectl's to change, and chmod would fail there anyway.
 */
function tightenDir(dir: string): void {
  if (process.platform === 'win32') return;
  try {
    const st = statSync(dir);
    if (st.isDirectory() && (st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) chmodSync(dir, DIR_MODE);
  } catch {
    // The write that follows reports a folder it cannot use; a mode it could not narrow is no reason to refuse it.
  }
}

function fsReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return 'permission denied';
  if (e?.code === 'ENOTDIR') return 'a file is in the way of the directory';
  if (e instanceof SyntaxError) return `it is not valid JSON (${e.message})`;
  return e?.message ?? String(err);
}
