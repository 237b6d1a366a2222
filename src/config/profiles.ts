/**
 * Saved profiles. Reads go straight to the JSON file (a plain read costs under a
 * millisecond, loading conf costs ~85 ms at start-up); writes go through store.ts, which
 * locks the file and writes it atomically with mode 0600, so a reader always sees a
 * whole file.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { fsErrorReason } from '../util/fs-error.js';
import { isObject } from '../util/is-object.js';

// webhook_secret / webhook_endpoint: saved by `webhook create|rotate-secret --save-secret` for `listen`.
// do_not_call_file / calling_hours: applied by `campaign create|redial|launch` (docs/campaign-operations.md).
// timezone: the zone of every time shown and of dates typed without an offset (--tz, VOICECTL_TZ).
// rate_card: the user's prices per country (a YAML file, stored absolute): cost in campaign run and campaign report.
// strict: "true" makes `contacts validate` and `campaign create` treat every warning about a contacts file as an error (--strict).
export const PROFILE_KEYS = ['base_url', 'api_key', 'default_country', 'timeout', 'webhook_secret', 'webhook_endpoint', 'do_not_call_file', 'calling_hours', 'timezone', 'strict', 'rate_card'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
/**
 * Settings whose values another module understands: a country (contacts/), a window
 * of calling hours and a rate card (campaigns/). The caller supplies their checks (normalizeValue), so
 * config/ stays below the domains it is read by.
 */
export const KEYS_CHECKED_BY_CALLER = ['default_country', 'calling_hours', 'rate_card'] as const satisfies readonly ProfileKey[];
export type KeyCheckedByCaller = (typeof KEYS_CHECKED_BY_CALLER)[number];
export type Profile = Partial<Record<ProfileKey, string>>;

export interface ConfigFile {
  profiles?: Record<string, Profile>;
}

export function configDir(env: Record<string, string | undefined>): string {
  if (env.VOICECTL_CONFIG_DIR) return env.VOICECTL_CONFIG_DIR;
  const home = env.HOME ?? homedir();
  if (process.platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'voicectl', 'Config');
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'voicectl');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'voicectl');
}

export function configPath(env: Record<string, string | undefined>): string {
  return join(configDir(env), 'config.json');
}

/** The whole file, or an empty config when there is none yet. */
export function readConfig(env: Record<string, string | undefined>): ConfigFile {
  return inspectConfig(env).config;
}

/**
 * The file and, when it exists but cannot be used, why (a phrase that follows the
 * file's path: "is not valid JSON: …"). Commands that need settings refuse a broken
 * file (see configFileError) instead of treating it as empty: "No service address is
 * set" would send the user looking in the wrong place.
 */
export function inspectConfig(env: Record<string, string | undefined>): { path: string; exists: boolean; config: ConfigFile; problem?: string } {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, exists: false, config: {} };
    return { path, exists: true, config: {}, problem: `cannot be read: ${fsErrorReason(err)}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { path, exists: true, config: {}, problem: `is not valid JSON: ${(err as Error).message}` };
  }
  if (!isObject(parsed)) return { path, exists: true, config: {}, problem: 'does not hold a JSON object' };
  const profiles = parsed.profiles;
  if (profiles !== undefined && !isObject(profiles)) return { path, exists: true, config: {}, problem: 'has a "profiles" entry that is not an object' };
  for (const [name, profile] of Object.entries(profiles ?? {})) {
    if (!isObject(profile)) return { path, exists: true, config: {}, problem: `has a profile "${name}" that is not an object` };
  }
  return { path, exists: true, config: parsed as ConfigFile };
}

/** The error every command gives for a config file it cannot use (exit 2: the file is the user's input). */
export function configFileError(path: string, problem: string): UsageError {
  return new UsageError(`the config file ${path} ${problem}`, {
    hint: 'Fix the file, or move it away and run `voicectl login` to write a new one. VOICECTL_CONFIG_DIR points voicectl at another folder.',
  });
}

/** The named profile ({} when it is not saved); throws configFileError for a file that cannot be used. */
export function readProfile(env: Record<string, string | undefined>, name: string): Profile {
  const file = inspectConfig(env);
  if (file.problem) throw configFileError(file.path, file.problem);
  const profiles = file.config.profiles;
  // Own properties only: a profile named "constructor" must not read Object's prototype.
  if (!profiles || !Object.hasOwn(profiles, name)) return {};
  return profiles[name] ?? {};
}

/** Settings that are never printed whole (only their last four characters). */
export function isSecretKey(key: string): boolean {
  return key === 'api_key' || key === 'webhook_secret';
}

/** Shows the last four characters of a key, never the key. */
export function maskKey(key: string | undefined): string {
  if (!key) return '';
  return key.length <= 4 ? '****' : `****${key.slice(-4)}`;
}

/** A profile as it may be shown: known keys first, the API key masked. */
export function maskProfile(profile: Profile): Record<string, string> {
  const out: Record<string, string> = {};
  const keys = [...PROFILE_KEYS.filter((k) => k in profile), ...Object.keys(profile).filter((k) => !(PROFILE_KEYS as readonly string[]).includes(k))];
  for (const k of keys) {
    const v = (profile as Record<string, unknown>)[k];
    if (v === undefined || v === null) continue;
    out[k] = isSecretKey(k) ? maskKey(String(v)) : typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}
