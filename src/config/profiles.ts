/**
 * Saved profiles. Reads go straight to the JSON file (a plain read costs under a
 * millisecond, loading conf costs ~85 ms at start-up); writes go through conf, which
 * writes atomically and with mode 0600.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// webhook_secret / webhook_endpoint: saved by `webhook create|rotate-secret --save-secret` for `listen`.
// do_not_call_file / calling_hours: applied by `campaign create|redial|launch` (docs/campaign-operations.md).
export const PROFILE_KEYS = ['base_url', 'api_key', 'default_country', 'timeout', 'webhook_secret', 'webhook_endpoint', 'do_not_call_file', 'calling_hours'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
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
 * The file and, when it exists but cannot be used, why: commands that show or change
 * the config say so instead of silently treating a broken file as empty.
 */
export function inspectConfig(env: Record<string, string | undefined>): { path: string; exists: boolean; config: ConfigFile; problem?: string } {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, exists: false, config: {} };
    return { path, exists: true, config: {}, problem: code === 'EACCES' ? 'permission denied' : (err as Error).message };
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { path, exists: true, config: parsed as ConfigFile };
    return { path, exists: true, config: {}, problem: 'it does not hold a JSON object' };
  } catch (err) {
    return { path, exists: true, config: {}, problem: `it is not valid JSON (${(err as Error).message})` };
  }
}

export function readProfile(env: Record<string, string | undefined>, name: string): Profile {
  const profiles = readConfig(env).profiles;
  // Own properties only: a profile named "constructor" must not read Object's prototype.
  if (!profiles || typeof profiles !== 'object' || !Object.hasOwn(profiles, name)) return {};
  const profile = profiles[name];
  return profile && typeof profile === 'object' ? profile : {};
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
